import { readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { InvalidArgumentError, RECOVERY_FOLDER, readRemovedEntry, sha256Hex, stripUrlCredentials, type Message, type RemovedEntry } from '@ollm/core';
import { openProxyStore, type SearchableProxyStore } from '@ollm/serve/store';
import type { CliIo } from '../cli-io.js';
import type { CommandContext } from '../command-context.js';
import { ollmHome, resolveLogdir } from '../ollm-home.js';
import { renderMessageEntry } from '../sessions/render-sessions.js';
import { defineCommand } from './define-command.js';

interface RecoverOptions {
  readonly logdir?: string;
  readonly store?: string;
  readonly json?: boolean;
}

/** What the reference names: a placeholder's path, a full sha256, or a prefix to look up. */
type Reference = { readonly sha256: string; readonly path?: string } | { readonly prefix: string };

const fullSha = /^[0-9a-f]{64}$/;
const savedFileName = /^([0-9a-f]{64})\.txt$/;
const minimumPrefix = 8;
const redactedNote = 'ollm: note: secrets were replaced by [redacted] in this content when it was saved\n';

const badReference = (message: string): Error => new InvalidArgumentError({ argument: 'reference', message });

/** `ollm recover`: named and described by the dispatcher (run-cli.ts). */
export const recoverCommand = defineCommand((command: Command, context: CommandContext) => {
  command
    .argument(
      '<reference>',
      'the path a placeholder names, the placeholder itself ("[ollm fold 0d81d2859b39]"), the sha256, or a unique prefix of at least 8 hex digits',
    )
    .option('--logdir <dir>', 'the logdir compaction used (default: $OLLM_HOME or ~/.ollm)')
    .option('--store <files|redis://…>', 'where `ollm serve` kept removed content: files (the logdir, the default) or the redis:// URL its --store named')
    .option('--json', 'print a saved run of messages as the JSON it was saved as (default: as readable messages, as `sessions show` prints them)')
    .addHelpText(
      'after',
      `
Removed content is stored as <logdir>/removed/<sha256>.txt, or, for an ollm serve sharing a
Redis store, under <prefix>removed:<sha256> in Redis (--store redis://…). The content is
checked against its sha256 before it is printed. Secrets (the API key, URL credentials) were
replaced by [redacted] when it was saved; such an entry is checked against what was stored,
and a note on stderr says so.

Examples:
  $ ollm recover ~/.ollm/removed/3f2a9c1e...e41b.txt
  $ ollm recover 3f2a9c1e
  $ ollm recover 3f2a9c1e --store redis://127.0.0.1:6379`,
    )
    .action(async (reference: string, options: RecoverOptions) => {
      const { io } = context;
      const parsed = parseReference(reference, io);
      if (options.store === undefined || options.store === 'files') {
        recoverFromFiles(parsed, join(resolveLogdir(io, options.logdir), RECOVERY_FOLDER), io, options.json === true);
        return;
      }
      if (options.logdir !== undefined) {
        throw new InvalidArgumentError({ argument: 'store', message: '--logdir names a folder and --store a Redis URL: give one of them.' });
      }
      const store = await openProxyStore(options.store, { home: ollmHome(io) });
      try {
        await recoverFromStore(parsed, store, `the Redis store at ${stripUrlCredentials(options.store)}`, io, options.json === true);
      } finally {
        await store.close();
      }
    });
});

function parseReference(reference: string, io: CliIo): Reference {
  const trimmed = reference.trim();
  const fileName = savedFileName.exec(basename(trimmed).toLowerCase());
  if (fileName) {
    // A placeholder's path: read it where it points, so another logdir works without --logdir.
    return { sha256: fileName[1]!, ...(trimmed.includes('/') ? { path: resolve(io.cwd, trimmed) } : {}) };
  }
  // A placeholder as it reads in a compacted conversation, pasted whole: `[ollm fold 0d81d2859b39] 12 lines`.
  const placeholder = /\[ollm [\w-]+ ([0-9a-f]{8,64})\]/i.exec(trimmed);
  if (placeholder) return parseReference(placeholder[1]!, io);
  if (fullSha.test(trimmed.toLowerCase())) return { sha256: trimmed.toLowerCase() };
  if (/^[0-9a-fA-F]+$/.test(trimmed)) {
    if (trimmed.length < minimumPrefix) throw badReference(`"${trimmed}" is too short: give at least ${minimumPrefix} hex digits of the sha256.`);
    return { prefix: trimmed.toLowerCase() };
  }
  throw badReference(
    `"${reference}" is not a recovery path (.../removed/<sha256>.txt), a placeholder ([ollm fold <hex>]) or a sha256 (prefix of at least ${minimumPrefix} hex digits).`,
  );
}

/** The one sha256 among `matches` that starts with `prefix`, or a usage error naming where it looked. */
function uniqueMatch(prefix: string, matches: readonly string[], where: string): string {
  if (matches.length === 0) throw badReference(`Nothing saved under ${where} starts with ${prefix}.`);
  if (matches.length > 1) {
    throw badReference(
      `${prefix} is ambiguous: ${matches.length} saved pieces match (${matches.slice(0, 4).join(', ')}${matches.length > 4 ? ', ...' : ''}); give more digits.`,
    );
  }
  return matches[0]!;
}

function recoverFromFiles(reference: Reference, folder: string, io: CliIo, json: boolean): void {
  const sha256 =
    'prefix' in reference
      ? uniqueMatch(
          reference.prefix,
          savedShas(folder).filter((candidate) => candidate.startsWith(reference.prefix)),
          folder,
        )
      : reference.sha256;
  const path = 'path' in reference && reference.path !== undefined ? reference.path : join(folder, `${sha256}.txt`);
  let entry: RemovedEntry;
  try {
    entry = readRemovedEntry(path, sha256);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw badReference(`Nothing saved as ${sha256} (looked for ${path}).`);
    throw error;
  }
  if (entry.state === 'damaged') {
    throw new Error(`${path} does not match its sha256: the saved content was changed or damaged.`);
  }
  // Bytes as saved: only a run of messages (JSON, so UTF-8) is decoded to be shown readably.
  io.stdout.write(json || entry.content[0] !== 0x5b ? entry.content : readable(entry.content.toString('utf8')));
  if (entry.state === 'redacted') io.stderr.write(redactedNote);
}

/**
 * A piece as a person reads it: a tool output or a text is printed as it was; a run of messages
 * (what a digest replaced, saved as their JSON) as `sessions show` prints messages. `--json`
 * gives the saved form byte for byte.
 */
function readable(content: string): string {
  if (!content.startsWith('[')) return content;
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return content;
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every(isMessage)) return content;
  return `${parsed.map((message, index) => renderMessageEntry(message, index)).join('\n')}\n`;
}

function isMessage(value: unknown): value is Message {
  if (value === null || typeof value !== 'object') return false;
  const candidate = value as { role?: unknown; parts?: unknown };
  return typeof candidate.role === 'string' && Array.isArray(candidate.parts);
}

/** From a proxy's shared store: it answers only content that is intact or as redacted when saved. */
async function recoverFromStore(reference: Reference, store: SearchableProxyStore, where: string, io: CliIo, json: boolean): Promise<void> {
  const sha256 = 'prefix' in reference ? uniqueMatch(reference.prefix, await store.findRemoved(reference.prefix), where) : reference.sha256;
  const content = await store.getRemoved(sha256);
  if (content === undefined) {
    if ((await store.findRemoved(sha256)).includes(sha256)) {
      throw new Error(`${sha256} in ${where} does not match its sha256: the saved content was changed or damaged.`);
    }
    throw badReference(`Nothing saved as ${sha256} in ${where}.`);
  }
  io.stdout.write(json ? content : readable(content));
  if (sha256Hex(content) !== sha256) io.stderr.write(redactedNote);
}

function savedShas(folder: string): string[] {
  try {
    return readdirSync(folder).flatMap((name) => savedFileName.exec(name)?.[1] ?? []);
  } catch {
    // No recovery folder yet: nothing was ever saved there.
    return [];
  }
}
