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
      const snapshots = new SnapshotStore({ home }).list(sessionId);
      if (options.json) {
        io.stdout.write(`${JSON.stringify({ sessionId, snapshots }, null, 2)}\n`);
        return;
      }
      io.stdout.write(snapshots.length === 0 ? `No snapshots in session ${sessionId}.\n` : `Session ${sessionId}\n${renderSnapshots(snapshots)}\n`);
    });

  snapshot
    .command('show')
    .description("a snapshot's summary and the messages it holds")
    .argument('<id>', 'snapshot id')
    .option('--session <id>', 'session (default: the one holding the snapshot)')
    .option('--json', 'print the whole snapshot as JSON')
    .action(async (id: string, options: SnapshotOptions) => {
      const { io } = context;
      const { store, sessionId } = locateSnapshot(io, id, options);
      const found = store.read(sessionId, id);
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
    .argument('<id>', 'snapshot id')
    .option('--session <id>', 'session (default: the one holding the snapshot)')
    .action(async (id: string, options: SnapshotOptions) => {
      const { io } = context;
      const { store, home, sessionId } = locateSnapshot(io, id, options);
      const found = store.read(sessionId, id);
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
      .argument('<id>', 'snapshot id')
      .option('--session <id>', 'session (default: the one holding the snapshot)')
      .action(async (id: string, options: SnapshotOptions) => {
        const { io } = context;
        const { store, sessionId } = locateSnapshot(io, id, options);
        store.keep(sessionId, id, kept);
        io.stdout.write(
          kept
            ? `kept snapshot ${id} of session ${sessionId}: never pruned (ollm snapshot unkeep ${id} undoes it)\n`
            : `snapshot ${id} of session ${sessionId} is no longer kept\n`,
        );
      });
  }

  snapshot
    .command('delete')
    .description('delete a snapshot')
    .argument('<id>', 'snapshot id')
    .option('--session <id>', 'session (default: the one holding the snapshot)')
    .action(async (id: string, options: SnapshotOptions) => {
      const { io } = context;
      const { store, sessionId } = locateSnapshot(io, id, options);
      store.delete(sessionId, id);
      io.stdout.write(`deleted snapshot ${id} of session ${sessionId}\n`);
    });
});

/** The snapshot store, `$OLLM_HOME`, and the session holding snapshot `id` (from `--session` or a search). */
function locateSnapshot(io: CommandContext['io'], id: string, options: SnapshotOptions) {
  const home = ollmHome(io);
  return { store: new SnapshotStore({ home }), home, sessionId: options.session ?? sessionOfSnapshot(home, id) };
}

/** The session whose snapshot folder holds `snapshotId` (ids are unique: time, sequence, random). */
function sessionOfSnapshot(home: string, snapshotId: string): string {
  validateStorageId('snapshot', snapshotId);
  const folder = resolveInside(home, 'snapshots');
  const sessions = existsSync(folder) ? readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isDirectory()) : [];
  const owner = sessions.find((entry) => existsSync(resolveInside(folder, entry.name, `${snapshotId}.json`)));
  if (!owner) throw new InvalidArgumentError({ argument: 'snapshot', message: `No snapshot "${snapshotId}" under ${folder} (see \`ollm snapshot list\`).` });
  return owner.name;
}
