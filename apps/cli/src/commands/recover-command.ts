import { readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { InvalidArgumentError, RECOVERY_FOLDER, readRemovedEntry, type RemovedEntry } from '@ollm/core';
import type { CommandContext } from '../command-context.js';
import { resolveLogdir } from '../ollm-home.js';
import { defineCommand } from './define-command.js';

interface RecoverOptions {
  readonly logdir?: string;
}

const fullSha = /^[0-9a-f]{64}$/;
const savedFileName = /^([0-9a-f]{64})\.txt$/;
const minimumPrefix = 8;

/** `ollm recover`: named and described by the dispatcher (run-cli.ts). */
export const recoverCommand = defineCommand((command: Command, context: CommandContext) => {
  command
    .argument('<reference>', 'the path a placeholder names, the sha256, or a unique prefix of at least 8 hex digits')
    .option('--logdir <dir>', 'the logdir compaction used (default: $OLLM_HOME or ~/.ollm)')
    .addHelpText(
      'after',
      `
Removed content is stored as <logdir>/removed/<sha256>.txt. The content is checked against
its sha256 before it is printed. Secrets (the API key, URL credentials) were replaced by
[redacted] when it was saved; such an entry is checked against what was stored, and a note
on stderr says so.

Examples:
  $ ollm recover ~/.ollm/removed/3f2a9c1e...e41b.txt
  $ ollm recover 3f2a9c1e`,
    )
    .action(async (reference: string, options: RecoverOptions) => {
      const { io } = context;
      const folder = join(resolveLogdir(io, options.logdir), RECOVERY_FOLDER);
      const badReference = (message: string): Error => new InvalidArgumentError({ argument: 'reference', message });
      const trimmed = reference.trim();
      let path: string;
      let sha256: string;
      const fileName = savedFileName.exec(basename(trimmed).toLowerCase());
      if (fileName) {
        // A placeholder's path: read it where it points, so another logdir works without --logdir.
        sha256 = fileName[1]!;
        path = trimmed.includes('/') ? resolve(io.cwd, trimmed) : join(folder, `${sha256}.txt`);
      } else if (fullSha.test(trimmed.toLowerCase())) {
        sha256 = trimmed.toLowerCase();
        path = join(folder, `${sha256}.txt`);
      } else if (/^[0-9a-fA-F]+$/.test(trimmed)) {
        if (trimmed.length < minimumPrefix) throw badReference(`"${trimmed}" is too short: give at least ${minimumPrefix} hex digits of the sha256.`);
        const prefix = trimmed.toLowerCase();
        const matches = savedShas(folder).filter((candidate) => candidate.startsWith(prefix));
        if (matches.length === 0) throw badReference(`Nothing saved under ${folder} starts with ${prefix}.`);
        if (matches.length > 1) {
          throw badReference(
            `${prefix} is ambiguous: ${matches.length} saved pieces match (${matches.slice(0, 4).join(', ')}${matches.length > 4 ? ', ...' : ''}); give more digits.`,
          );
        }
        sha256 = matches[0]!;
        path = join(folder, `${sha256}.txt`);
      } else {
        throw badReference(`"${reference}" is not a recovery path (.../removed/<sha256>.txt) or a sha256 (prefix of at least ${minimumPrefix} hex digits).`);
      }
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
      io.stdout.write(entry.content);
      if (entry.state === 'redacted') io.stderr.write('ollm: note: secrets were replaced by [redacted] in this content when it was saved\n');
    });
});

function savedShas(folder: string): string[] {
  try {
    return readdirSync(folder).flatMap((name) => savedFileName.exec(name)?.[1] ?? []);
  } catch {
    // No recovery folder yet: nothing was ever saved there.
    return [];
  }
}
