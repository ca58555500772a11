import { existsSync, readdirSync } from 'node:fs';
import type { Command } from 'commander';
import { InvalidArgumentError } from '@ollm/core';
import { SnapshotStore, compactionCountOf, listSessions, resolveInside, validateStorageId } from '@ollm/runtime';
import type { CommandContext } from '../command-context.js';
import { formatInteger } from '../output/format-number.js';
import { ollmHome } from '../ollm-home.js';
import { activeContextPath, writeActiveContext } from '../sessions/active-context-file.js';
import { renderMessageEntry, renderSnapshots, shortTime } from '../sessions/render-sessions.js';
import { plural } from '../output/plural.js';
import { oneLine } from '../exit-codes.js';
import { defineCommand } from './define-command.js';

interface SnapshotOptions {
  readonly session?: string;
  readonly json?: boolean;
}

/** `ollm snapshot` and its subcommands: named and described by the dispatcher (run-cli.ts). */
export const snapshotCommand = defineCommand((snapshot: Command, context: CommandContext) => {
  snapshot.addHelpText(
    'after',
    `
Snapshots are $OLLM_HOME/snapshots/<session>/<id>.json. One is taken before every compaction;
/snapshot create takes one in the chat. Without --session, list uses the most recent session and
the other actions find the session that holds the snapshot.

Retention keeps the newest snapshots.retain automatic and snapshots.retainManual manual ones;
a kept snapshot (keep) is in neither quota and never pruned.

restore writes the snapshot's context to the session's context.json: the next
\`ollm --session <session>\` resumes from it. The session's full record is not changed.

Examples:
  $ ollm snapshot list
  $ ollm snapshot show 20261130061702123-000-3f2a9c
  $ ollm snapshot restore 20261130061702123-000-3f2a9c && ollm --session 20261130-061702-3f2a
  $ ollm snapshot keep 20261130061702123-000-3f2a9c      # never pruned`,
  );
  snapshot.action(() => snapshot.help());

  snapshot
    .command('list')
    .description("a session's snapshots, newest first")
    .option('--session <id>', 'session (default: the most recent)')
    .option('--json', 'print them as JSON')
    .action(async (options: SnapshotOptions) => {
      const { io } = context;
      const home = ollmHome(io);
      const sessionId = options.session ?? listSessions(home)[0]?.sessionId;
      if (!sessionId) throw new InvalidArgumentError({ argument: 'session', message: `No sessions under ${home}: start one with \`ollm\`.` });
      const snapshots = new SnapshotStore({
        home,
        onDamaged: (path, error) => io.stderr.write(`ollm: warning: skipped a damaged snapshot: ${oneLine(error.message)} (${path})\n`),
      }).list(sessionId);
      if (options.json) {
        io.stdout.write(`${JSON.stringify({ sessionId, snapshots }, null, 2)}\n`);
        return;
      }
      io.stdout.write(snapshots.length === 0 ? `No snapshots in session ${sessionId}.\n` : `Session ${sessionId}\n${renderSnapshots(snapshots)}\n`);
    });

  snapshot
    .command('show')
    .description("a snapshot's summary and the messages it holds")
    .argument('<id>', 'snapshot id, or a part only it has (the start of the id or of its random part)')
    .option('--session <id>', 'session (default: the one holding the snapshot)')
    .option('--json', 'print the whole snapshot as JSON')
    .action(async (id: string, options: SnapshotOptions) => {
      const { io } = context;
      const { store, sessionId, snapshotId } = locateSnapshot(io, id, options);
      const found = store.read(sessionId, snapshotId);
      if (options.json) {
        io.stdout.write(`${JSON.stringify(found, null, 2)}\n`);
        return;
      }
      io.stdout.write(
        `Snapshot ${found.id} of session ${found.sessionId}, ${found.automatic ? 'automatic' : 'manual'} (${found.metadata.reason ?? 'no reason'}), taken ${shortTime(found.timestamp)}\n` +
          `${formatInteger(found.messageCount)} messages, ${formatInteger(found.tokenCount)} tokens, ${found.checkpointCount} checkpoints, ${plural(compactionCountOf(found.context), 'compaction')}${found.context.goal ? `, goal: ${found.context.goal.description}` : ''}\n\n`,
      );
      found.context.messages.forEach((message, index) => io.stdout.write(`${renderMessageEntry(message, index)}\n`));
    });

  snapshot
    .command('restore')
    .description('make the next `ollm --session <session>` resume from this snapshot')
    .argument('<id>', 'snapshot id, or a part only it has (the start of the id or of its random part)')
    .option('--session <id>', 'session (default: the one holding the snapshot)')
    .action(async (id: string, options: SnapshotOptions) => {
      const { io } = context;
      const { store, home, sessionId, snapshotId } = locateSnapshot(io, id, options);
      const found = store.read(sessionId, snapshotId);
      const secrets = io.env['OPENAI_API_KEY'] ? [io.env['OPENAI_API_KEY']] : [];
      writeActiveContext(
        activeContextPath(home, sessionId),
        { version: 1, sessionId, savedAt: new Date().toISOString(), restoredFrom: found.id, context: found.context },
        secrets,
      );
      io.stdout.write(
        `restored snapshot ${found.id} (${formatInteger(found.messageCount)} messages, ${formatInteger(found.tokenCount)} tokens) into session ${sessionId}; resume with: ollm --session ${sessionId}\n`,
      );
    });

  for (const [name, kept] of [
    ['keep', true],
    ['unkeep', false],
  ] as const) {
    snapshot
      .command(name)
      .description(kept ? 'keep a snapshot: never pruned by the retention quotas' : 'let the retention quotas count a kept snapshot again')
      .argument('<id>', 'snapshot id, or a part only it has (the start of the id or of its random part)')
      .option('--session <id>', 'session (default: the one holding the snapshot)')
      .action(async (id: string, options: SnapshotOptions) => {
        const { io } = context;
        const { store, sessionId, snapshotId } = locateSnapshot(io, id, options);
        store.keep(sessionId, snapshotId, kept);
        io.stdout.write(
          kept
            ? `kept snapshot ${snapshotId} of session ${sessionId}: never pruned (ollm snapshot unkeep ${snapshotId} undoes it)\n`
            : `snapshot ${snapshotId} of session ${sessionId} is no longer kept\n`,
        );
      });
  }

  snapshot
    .command('delete')
    .description('delete a snapshot')
    .argument('<id>', 'snapshot id, or a part only it has (the start of the id or of its random part)')
    .option('--session <id>', 'session (default: the one holding the snapshot)')
    .action(async (id: string, options: SnapshotOptions) => {
      const { io } = context;
      const { store, sessionId, snapshotId } = locateSnapshot(io, id, options);
      store.delete(sessionId, snapshotId);
      io.stdout.write(`deleted snapshot ${snapshotId} of session ${sessionId}\n`);
    });
});

/**
 * The snapshot store, `$OLLM_HOME`, the session holding snapshot `id` (from `--session` or a
 * search) and the snapshot's full id: `id` may be any part that names one snapshot alone (the
 * start of its id or of its random part).
 */
function locateSnapshot(io: CommandContext['io'], id: string, options: SnapshotOptions) {
  const home = ollmHome(io);
  const store = new SnapshotStore({ home });
  if (options.session) return { store, home, sessionId: options.session, snapshotId: store.resolveId(options.session, id) };
  const { sessionId, snapshotId } = findSnapshot(home, store, id);
  return { store, home, sessionId, snapshotId };
}

/** The session whose snapshot folder holds the one snapshot `text` names (ids are unique: time, sequence, random). */
function findSnapshot(home: string, store: SnapshotStore, text: string): { sessionId: string; snapshotId: string } {
  validateStorageId('snapshot', text);
  const folder = resolveInside(home, 'snapshots');
  const sessions = existsSync(folder) ? readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isDirectory()) : [];
  const found: { sessionId: string; snapshotId: string }[] = [];
  let ambiguous: unknown;
  for (const entry of sessions) {
    try {
      found.push({ sessionId: entry.name, snapshotId: store.resolveId(entry.name, text) });
    } catch (error) {
      // "names N snapshots" in one session: reported as it is; "no snapshot" there: the next session.
      if (error instanceof Error && / names \d+ snapshots /.test(error.message)) ambiguous = error;
    }
  }
  if (ambiguous) throw ambiguous;
  if (found.length === 1) return found[0]!;
  if (found.length === 0)
    throw new InvalidArgumentError({ argument: 'snapshot', message: `No snapshot "${text}" under ${folder} (see \`ollm snapshot list\`).` });
  throw new InvalidArgumentError({
    argument: 'snapshot',
    message: `"${text}" names snapshots in ${found.length} sessions (${found.map((match) => match.snapshotId).join(', ')}): give more of the id, or --session.`,
  });
}
