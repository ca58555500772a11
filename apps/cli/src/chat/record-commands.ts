import { InvalidArgumentError, stringifyRedacted, writeFileAtomic } from '@ollm/core';
import { compactionCountOf, exportSession, listSessions } from '@ollm/runtime';
import { resolve } from 'node:path';
import { displayPath } from '../exit-codes.js';
import { formatInteger } from '../output/format-number.js';
import { defaultExportPath, renderMessageEntry, renderSessions, renderSnapshots, shortTime } from '../sessions/render-sessions.js';
import type { SlashCommand } from './slash-command.js';
import { plural } from '../output/plural.js';

export const snapshotCommand: SlashCommand = {
  name: 'snapshot',
  usage: 'create [REASON]|list|restore ID|keep ID|unkeep ID|delete ID',
  summary: 'save, list, restore, keep (never pruned) or delete the full context state',
  async run(session, argument) {
    const [action = 'list', ...rest] = argument.split(/\s+/).filter(Boolean);
    const value = rest.join(' ');
    const { manager, options } = session;
    switch (action) {
      case 'create': {
        const snapshot = manager.createSnapshot(value || 'manual');
        session.print(`snapshot created: ${snapshot.id} (${plural(snapshot.messageCount, 'message')}, ${plural(snapshot.tokenCount, 'token')})`);
        return;
      }
      case 'list': {
        const snapshots = manager.listSnapshots();
        session.print(snapshots.length === 0 ? 'No snapshots yet: /snapshot create (one is also taken before every compaction).' : renderSnapshots(snapshots));
        return;
      }
      case 'restore': {
        if (!value) throw await missingId('restore');
        // The chat loop saves the restored context and prints the status line after this command.
        const snapshot = manager.restoreSnapshot(value);
        const goal = snapshot.context.goal ? `, goal: ${snapshot.context.goal.description}` : ', no goal';
        session.print(
          `restored snapshot ${snapshot.id} from ${shortTime(snapshot.timestamp)}: ${plural(snapshot.messageCount, 'message')}, ${plural(snapshot.tokenCount, 'token')}, ${plural(compactionCountOf(snapshot.context), 'compaction')}${goal}`,
        );
        if (!manager.fitsWindow()) session.print('It is over this window: the next message compacts it before anything is sent.');
        return;
      }
      case 'keep':
      case 'unkeep': {
        if (!value) throw await missingId(action);
        const id = options.snapshots.resolveId(options.sessionId, value);
        options.snapshots.keep(options.sessionId, id, action === 'keep');
        session.print(
          action === 'keep' ? `snapshot kept: ${id} (never pruned; /snapshot unkeep ${id} lets retention count it again)` : `snapshot no longer kept: ${id}`,
        );
        return;
      }
      case 'delete': {
        if (!value) throw await missingId('delete');
        const id = options.snapshots.resolveId(options.sessionId, value);
        options.snapshots.delete(options.sessionId, id);
        session.print(`snapshot deleted: ${id}`);
        return;
      }
      default: {
        throw new InvalidArgumentError({
          argument: 'snapshot',
          message: `Unknown /snapshot action "${action}": use create, list, restore ID, keep ID, unkeep ID or delete ID.`,
        });
      }
    }
  },
};

async function missingId(action: string): Promise<Error> {
  return new InvalidArgumentError({ argument: 'snapshot', message: `/snapshot ${action} needs a snapshot id (see /snapshot list).` });
}

/** Messages `/history` shows without an argument: the newest page, not a 100 KB dump. */
export const HISTORY_PAGE = 20;

export const historyCommand: SlashCommand = {
  name: 'history',
  usage: '[N|FROM-TO|all]',
  summary: `the full record of this session, a page at a time: the newest ${HISTORY_PAGE}, the newest N, messages FROM-TO, or all`,
  async run(session, argument) {
    const messages = session.recordedMessages();
    const range = historyRange(argument.trim(), messages.length);
    for (let index = range.from; index < range.to; index += 1) session.print(renderMessageEntry(messages[index]!, index));
    const where = displayPath(session.options.history.path, session.options.io.cwd);
    const shown = range.to - range.from;
    if (shown === messages.length) {
      session.print(`${formatInteger(messages.length)} messages recorded in ${where}`);
      return;
    }
    const earlier = range.from > 0 ? `; earlier: /history ${Math.max(1, range.from - HISTORY_PAGE + 1)}-${range.from}` : '';
    session.print(`messages ${range.from + 1}-${range.to} of ${formatInteger(messages.length)} recorded in ${where}${earlier}; /history all shows every one`);
  },
};

/** The messages (0-based, end exclusive) `/history ARG` shows; a bad argument is a clear error. */
export function historyRange(argument: string, total: number): { from: number; to: number } {
  if (argument === 'all') return { from: 0, to: total };
  if (argument === '') return { from: Math.max(0, total - HISTORY_PAGE), to: total };
  const newest = /^(\d+)$/.exec(argument);
  if (newest) return { from: Math.max(0, total - Number(newest[1])), to: total };
  const span = /^(\d+)-(\d+)$/.exec(argument);
  if (span && Number(span[1]) >= 1 && Number(span[1]) <= Number(span[2])) {
    return { from: Math.min(Number(span[1]) - 1, total), to: Math.min(Number(span[2]), total) };
  }
  throw new InvalidArgumentError({
    argument: 'history',
    message: `/history takes N (the newest N), FROM-TO (messages #FROM to #TO) or all; not "${argument}".`,
  });
}

export const exportCommand: SlashCommand = {
  name: 'export',
  usage: '[FILE]',
  summary: "write the session in ollm's JSON session layout (default $OLLM_HOME/sessions/ID.json)",
  async run(session, argument) {
    const { io, home, sessionId, secrets } = session.options;
    const path = argument.length > 0 ? resolve(io.cwd, argument) : defaultExportPath(home, sessionId);
    const exported = exportSession(session.options.history.read());
    writeFileAtomic(path, `${stringifyRedacted(exported, { secrets, space: 2 })}\n`);
    session.print(
      `exported ${plural(exported.messages.length, 'message')} and ${plural(exported.toolCalls.length, 'tool call')} to ${displayPath(path, io.cwd)}`,
    );
  },
};

export const sessionsCommand: SlashCommand = {
  name: 'sessions',
  usage: '',
  summary: 'the sessions under $OLLM_HOME (this one marked *)',
  async run(session) {
    session.print(renderSessions(listSessions(session.options.home), session.options.sessionId));
  },
};
