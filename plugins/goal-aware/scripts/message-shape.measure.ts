import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import {
  checkMessageShape,
  compactWith,
  createTokenizer,
  findMessageShapeRegressions,
  TokenCounter,
  type ContextProvider,
  type LanguageModel,
  type Message,
} from '@ollm/core';
import { startFakeModelServer } from '@ollm/fake-model-server';
import codeAware from '@ollm/plugin-code-aware';
import { createFoldProvider } from '@ollm/plugin-fold';
import mask from '@ollm/plugin-mask';
import { createSummarizeProvider } from '@ollm/plugin-summarize';
import trim from '@ollm/plugin-trim';
import { createWindowGuardProvider } from '@ollm/runtime';
import { readTranscript } from '@ollm/transcripts';
import { expect, it } from 'vitest';
// Not declared dependencies of goal-aware (adding them changes the workspace lockfile): read from source.
import { createGoalAwareProvider } from '../src/index.js';
import { createModel } from '../src/test-support/fake-models.js';

/**
 * How many fixture outputs of each provider break the strict message shape (core's
 * `checkMessageShape(messages, 'strict')`) more often than their input does — what a host asked for
 * `shape: 'strict'` rejects — and which rules. Every provider runs at limit 0.5 and 0.25 x tokens on every
 * conversation of every shipped fixture: `fixtures/` and, when present, `../shared/fixtures/`.
 * trim, mask, code-aware and fold run their real code; goal-aware and summarize run against the fake
 * model server through the ollama client, as their tests do; the runtime's window guard is
 * measured too (its fix is the runtime's).
 *
 *   npx vitest run --config plugins/goal-aware/scripts/vitest.measure.config.ts message-shape
 *
 * `OLLM_SHAPE_FIXTURES=repo` limits it to `fixtures/`; `OLLM_SHAPE_TAU_LIMIT=n` to the first n
 * dialogs of each tau-bench file; `OLLM_SHAPE_SHARED_FIXTURES=<folder>` names the shared set
 * (to measure another checkout, e.g. a `git worktree` of the commit before).
 */
const ROOT = new URL('../../../', import.meta.url).pathname;
const SHARED = process.env['OLLM_SHAPE_SHARED_FIXTURES'] ?? join(ROOT, '..', 'shared', 'fixtures');
const RATIOS = [0.5, 0.25];

function transcriptFiles(): string[] {
  const folders = [join(ROOT, 'fixtures')];
  if (process.env['OLLM_SHAPE_FIXTURES'] !== 'repo' && existsSync(SHARED)) folders.push(SHARED);
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) {
        if (name !== 'invalid' && name !== 'reports') walk(path);
      } else if (/\.(json|jsonl)$/.test(name) && !/^(manifest|package)\.json$/.test(name)) files.push(path);
    }
  };
  folders.forEach(walk);
  return files;
}

interface Tally {
  outputs: number;
  broken: number;
  errors: number;
  rules: Map<string, number>;
  absolute: number;
  examples: string[];
  /** tokensAfter / limit of each SWE-agent output the provider changed (tau-bench's system prompt alone is over most limits). */
  reached: number[];
}

it('counts fixture outputs that break the strict message shape, per provider', async () => {
  const tokens = new TokenCounter(createTokenizer('o200k_base'));
  const server = await startFakeModelServer();
  const model: LanguageModel = createModel(server, 'ollama');
  const workspace = mkdtempSync(join(tmpdir(), 'shape-measure-'));
  const tauLimit = Number(process.env['OLLM_SHAPE_TAU_LIMIT'] ?? Number.POSITIVE_INFINITY);
  const providers: { provider: ContextProvider; usesModel: boolean }[] = [
    { provider: trim, usesModel: false },
    { provider: mask, usesModel: false },
    { provider: codeAware, usesModel: false },
    { provider: createFoldProvider(), usesModel: false },
    { provider: createGoalAwareProvider(), usesModel: true },
    { provider: createSummarizeProvider({ workspace }), usesModel: true },
    // The runtime's last resort, for the record (it is not a plugin: the runtime runs it).
    { provider: createWindowGuardProvider(), usesModel: false },
  ];
  const tallies = new Map<string, Tally>(
    providers.map(({ provider }) => [provider.name, { outputs: 0, broken: 0, errors: 0, rules: new Map(), absolute: 0, examples: [], reached: [] }]),
  );
  let conversations = 0;
  let inputsBroken = 0;
  const inputRules = new Map<string, number>();
  try {
    for (const file of transcriptFiles()) {
      const transcript = await readTranscript(file).catch(() => undefined);
      if (!transcript) continue;
      const label = file.startsWith(SHARED) ? `shared/${relative(SHARED, file)}` : relative(ROOT, file);
      const list = transcript.format === 'tau-bench' ? transcript.conversations.slice(0, tauLimit) : transcript.conversations;
      for (const [index, conversation] of list.entries()) {
        const messages: readonly Message[] = conversation.messages;
        if (messages.length === 0) continue;
        conversations += 1;
        const own = checkMessageShape(messages, 'strict');
        if (own.length > 0) inputsBroken += 1;
        for (const rule of new Set(own.map((violation) => violation.rule))) inputRules.set(rule, (inputRules.get(rule) ?? 0) + 1);
        for (const ratio of RATIOS) {
          const limit = Math.floor(ratio * tokens.countMessages(messages));
          for (const { provider, usesModel } of providers) {
            const tally = tallies.get(provider.name)!;
            tally.outputs += 1;
            try {
              const result = await compactWith(provider, messages, { config: { limit }, context: { tokens, ...(usesModel ? { model } : {}) } });
              if (result.stats.tokensAfter < result.stats.tokensBefore && label.includes('swe-agent')) tally.reached.push(result.stats.tokensAfter / limit);
              if (checkMessageShape(result.messages, 'strict').length > 0) tally.absolute += 1;
              const regressions = findMessageShapeRegressions(messages, result.messages, 'strict');
              if (regressions.length === 0) continue;
              tally.broken += 1;
              for (const regression of regressions) tally.rules.set(regression.rule, (tally.rules.get(regression.rule) ?? 0) + 1);
              if (tally.examples.length < 3) {
                const first = regressions[0]!;
                tally.examples.push(
                  `${label}#${index} at ${ratio}: ${first.rule} ${first.inputCount} -> ${first.outputCount} (${first.violations[0]?.detail ?? ''})`,
                );
              }
            } catch (error) {
              tally.errors += 1;
              if (tally.examples.length < 3) tally.examples.push(`${label}#${index} at ${ratio}: threw ${String(error).slice(0, 200)}`);
            }
          }
        }
      }
    }
  } finally {
    await server.close();
  }
  console.log(
    `${conversations} conversations (${inputsBroken} whose input already breaks a strict rule: ${[...inputRules].map(([rule, count]) => `${rule} ${count}`).join(', ')}), each at limit ${RATIOS.join(' and ')} x tokens`,
  );
  console.log('provider     outputs  broken-vs-input  any-strict-violation  errors  swe after/limit (median)  rules broken (outputs)');
  for (const [name, tally] of tallies) {
    const rules = [...tally.rules].map(([rule, count]) => `${rule} ${count}`).join(', ') || '-';
    console.log(
      `${name.padEnd(11)}  ${String(tally.outputs).padStart(7)}  ${String(tally.broken).padStart(15)}  ${String(tally.absolute).padStart(24)}  ${String(tally.errors).padStart(6)}  ${median(tally.reached).toFixed(2).padStart(24)}  ${rules}`,
    );
    for (const example of tally.examples) console.log(`    e.g. ${example}`);
  }
  expect(conversations).toBeGreaterThan(0);
});

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? 0 : sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
