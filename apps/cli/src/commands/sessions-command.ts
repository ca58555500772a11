import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { InvalidArgumentError, writeFileAtomic } from '@ollm/core';
import { DEFAULT_SEARCH_LIMIT, deleteSession, exportSession, listSessions, readSession, resolveInside, searchSessions } from '@ollm/runtime';
import type { CommandContext } from '../command-context.js';
import { displayPath } from '../exit-codes.js';
import { ollmHome } from '../ollm-home.js';
import { colorsFor } from '../output/colors.js';
import { renderSearchHits, searchResultJson } from '../sessions/render-search-hits.js';
import { defaultExportPath, renderMessageEntry, renderSessions, shortTime } from '../sessions/render-sessions.js';
import { plural } from '../output/plural.js';
import { defineCommand } from './define-command.js';

interface JsonOption {
  readonly json?: boolean;
}

/** `ollm sessions` and its subcommands: named and described by the dispatcher (run-cli.ts). */
export const sessionsCommand = defineCommand((sessions: Command, context: CommandContext) => {
  sessions.addHelpText(
    'after',
    `
Each session is $OLLM_HOME/sessions/<id>/history.jsonl (every message, never compacted) and
context.json (the compressed context a resumed chat starts from); snapshots are under
$OLLM_HOME/snapshots/<id>/.

Examples:
  $ ollm sessions list
  $ ollm sessions show 20261130-061702-3f2a
  $ ollm sessions search config read         # messages and goals holding both words
  $ ollm sessions search "read the config" --session 20261130-061702-3f2a --json
  $ ollm sessions export 20261130-061702-3f2a --out session.json
  $ ollm sessions delete 20261130-061702-3f2a`,
  );
  sessions.action(() => sessions.help());

  sessions
    .command('list')
    .description('the sessions, newest activity first')
    .option('--json', 'print them as JSON')
    .action(async (options: JsonOption) => {
      const { io } = context;
      const records = listSessions(ollmHome(io));
      if (options.json) {
        const list = records.map((record) => ({
          sessionId: record.sessionId,
          startTime: record.startTime,
          lastActivity: record.lastActivity,
          model: record.model ?? null,
          provider: record.provider ?? null,
          ...record.metadata,
        }));
        io.stdout.write(`${JSON.stringify({ sessions: list }, null, 2)}\n`);
        return;
      }
      io.stdout.write(records.length === 0 ? `No sessions under ${ollmHome(io)}: start one with \`ollm\`.\n` : `${renderSessions(records)}\n`);
    });

  sessions
    .command('show')
    .description("a session's metadata and every recorded message")
    .argument('<id>', 'session id')
    .option('--json', "print ollm's JSON session layout (as export does)")
    .action(async (id: string, options: JsonOption) => {
      const { io } = context;
      const record = readSession(ollmHome(io), id);
      if (options.json) {
        io.stdout.write(`${JSON.stringify(exportSession(record), null, 2)}\n`);
        return;
      }
      io.stdout.write(
        `Session ${record.sessionId}: started ${shortTime(record.startTime)}, last activity ${shortTime(record.lastActivity)}, model ${record.model ?? '?'}, provider ${record.provider ?? '?'}\n` +
          `${plural(record.metadata.messageCount, 'message')}, ${plural(record.metadata.tokenCount, 'token')} recorded, ${plural(record.metadata.compactionCount, 'compaction')}\n\n`,
      );
      record.messages.forEach((message, index) => {
        io.stdout.write(`${renderMessageEntry(message, index)}\n`);
      });
    });

  sessions
    .command('search')
    .description('find messages (text, tool calls, tool results) and goals holding every word, newest session first')
    .argument('<text...>', 'the words to find, in any case (all of them in one message or goal); quote a phrase')
    .option('--json', 'print the hits as JSON')
    .option('--limit <n>', `at most this many hits (default ${DEFAULT_SEARCH_LIMIT})`)
    .option('--session <id>', 'search this session only')
    .action(async (words: string[], options: JsonOption & { limit?: string; session?: string }) => {
      const { io } = context;
      const home = ollmHome(io);
      const limit = options.limit === undefined ? DEFAULT_SEARCH_LIMIT : searchLimit(options.limit);
      const result = searchSessions(home, words, { limit, ...(options.session !== undefined ? { session: options.session } : {}) });
      if (options.json) {
        io.stdout.write(`${JSON.stringify(searchResultJson(result), null, 2)}\n`);
        return;
      }
      if (result.hits.length === 0) {
        const terms = result.terms.map((term) => JSON.stringify(term)).join(' and ');
        io.stdout.write(`No message or goal holds ${terms} (${plural(result.sessionsSearched, 'session')} searched under ${home}).\n`);
        return;
      }
      io.stdout.write(`${renderSearchHits(result, colorsFor(io), limit)}\n`);
    });

  sessions
    .command('export')
    .description("write a session in ollm's JSON session layout (sessionId, startTime, lastActivity, model, provider, messages, toolCalls, metadata)")
    .argument('<id>', 'session id')
    .option('--out <file>', 'write here (atomically) instead of stdout; `-` for stdout')
    .option('--default-path', 'write to $OLLM_HOME/sessions/<id>.json')
    .action(async (id: string, options: { out?: string; defaultPath?: boolean }) => {
      const { io } = context;
      const home = ollmHome(io);
      const exported = exportSession(readSession(home, id));
      const text = `${JSON.stringify(exported, null, 2)}\n`;
      const out = options.defaultPath ? defaultExportPath(home, id) : options.out && options.out !== '-' ? resolve(io.cwd, options.out) : undefined;
      if (!out) {
        io.stdout.write(text);
        return;
      }
      writeFileAtomic(out, text);
      io.stderr.write(
        `exported ${plural(exported.messages.length, 'message')} and ${plural(exported.toolCalls.length, 'tool call')} to ${displayPath(out, io.cwd)}\n`,
      );
    });

  sessions
    .command('delete')
    .description('delete a session: its record, saved context, snapshots and default export')
    .argument('<id>', 'session id')
    .action(async (id: string) => {
      const { io } = context;
      const home = ollmHome(io);
      readSession(home, id);
      deleteSession(home, id);
      rmSync(resolveInside(home, 'snapshots', id), { recursive: true, force: true });
      const exported = defaultExportPath(home, id);
      if (existsSync(exported)) rmSync(exported);
      io.stdout.write(`deleted session ${id}\n`);
    });
});

/** `--limit N`: a whole number above 0. */
function searchLimit(text: string): number {
  const limit = /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new InvalidArgumentError({ argument: 'limit', message: `Invalid --limit "${text}": use a whole number above 0.` });
  return limit;
}
