/**
 * `node internal/bench/dist/compaction-digests.js [--fixtures DIR] > digests.json`: the sha256 of
 * every compaction result (time zeroed, debug log included) of every fixture conversation, for
 * each rule-based provider and pipeline, several limits, with and without a logdir, cold and warm.
 * A performance change must leave this file byte-identical: run it before and after, then `cmp`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { TokenCounter, compactWith, createTokenizer, type Logger } from '@ollm/core';
import { ProviderRegistry } from '@ollm/runtime';
import codeAware from '@ollm/plugin-code-aware';
import mask from '@ollm/plugin-mask';
import trim from '@ollm/plugin-trim';
import { allConversations, defaultFixtureFolder, loadFixtures } from './fixture-set.js';

const PROVIDERS = ['trim', 'mask', 'code-aware', 'mask,code-aware,trim', 'mask,trim'];
/** Shares of each conversation's tokens; undefined is "no limit". */
const TARGETS = [undefined, 0.9, 0.5, 0.25, 0.05];

function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { fixtures: { type: 'string' } } });
  const { folder, origin } = values.fixtures ? { folder: values.fixtures, origin: 'given' as const } : defaultFixtureFolder();
  const conversations = allConversations(await loadFixtures({ folder, origin }));
  const registry = new ProviderRegistry();
  for (const provider of [trim, mask, codeAware]) registry.register(provider);
  // One fixed logdir for the whole run: placeholders name it, so it must not vary between runs.
  const logdir = join(tmpdir(), 'ollm-compaction-digests');
  rmSync(logdir, { recursive: true, force: true });
  const digests: Record<string, string> = {};
  for (const conversation of conversations) {
    const total = new TokenCounter(createTokenizer('o200k_base')).countMessages(conversation.messages);
    for (const name of PROVIDERS) {
      const provider = registry.get(name);
      for (const target of TARGETS) {
        for (const withLogdir of [false, true]) {
          for (const warm of [false, true]) {
            const tokens = new TokenCounter(createTokenizer('o200k_base'));
            if (warm) tokens.countMessages(conversation.messages);
            const logs: string[] = [];
            const logger: Logger = { debug: (m) => logs.push(m), info: (m) => logs.push(m), warn: (m) => logs.push(m) };
            const config = { ...(target !== undefined ? { limit: Math.floor(total * target) } : {}), ...(withLogdir ? { logdir } : {}) };
            let value: unknown;
            try {
              const result = await compactWith(provider, conversation.messages, { config, context: { tokens, logger } });
              value = { ...result, stats: { ...result.stats, timeMs: 0 }, logs };
            } catch (error) {
              value = { error: String(error) };
            }
            digests[`${conversation.file}#${conversation.id}|${name}|${target ?? 'none'}|${withLogdir ? 'logdir' : '-'}|${warm ? 'warm' : 'cold'}`] = sha256(
              JSON.stringify(value),
            );
          }
        }
      }
    }
  }
  const removed = join(logdir, 'removed');
  const saved = existsSync(removed) ? readdirSync(removed).sort() : [];
  digests['saved-files'] = sha256(saved.map((file) => `${file}:${sha256(readFileSync(join(removed, file)))}`).join('\n'));
  rmSync(logdir, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify(digests, null, 1)}\n`);
}

await main();
