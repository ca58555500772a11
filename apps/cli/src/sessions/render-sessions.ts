import { renderMessage, type Message } from '@ollm/core';
import { resolveInside, validateStorageId, type SessionRecord, type SnapshotSummary } from '@ollm/runtime';
import { formatInteger } from '../output/format-number.js';
import { renderTable } from '../output/render-table.js';

/** `2026-11-30 06:17` from an ISO time: minutes are enough to tell sessions apart in a list. */
export function shortTime(iso: string): string {
  return iso.length >= 16 ? iso.slice(0, 16).replace('T', ' ') : iso;
}

/**
 * `#3 (2026-11-30 06:36, interrupted)` and then the message as core's `renderMessage` prints it
 * (`assistant: ...`, tool calls and results marked), for /history, sessions show and snapshot show.
 */
export function renderMessageEntry(message: Message, index: number): string {
  const details = [message.timestamp ? shortTime(message.timestamp) : '', message.metadata?.['interrupted'] ? 'interrupted' : ''].filter(Boolean);
  return `#${index + 1}${details.length > 0 ? ` (${details.join(', ')})` : ''}\n${renderMessage(message)}`;
}

/** One row per session, newest activity first; `current` is marked with `*`. */
export function renderSessions(sessions: readonly SessionRecord[], current?: string): string {
  const rows = sessions.map((session) => [
    `${session.sessionId === current ? '* ' : ''}${session.sessionId}`,
    shortTime(session.startTime),
    shortTime(session.lastActivity),
    formatInteger(session.metadata.messageCount),
    formatInteger(session.metadata.compactionCount),
    session.model ?? '',
    session.provider ?? '',
  ]);
  return renderTable([['session', 'started', 'last activity', 'messages', 'compactions', 'model', 'provider'], ...rows], {
    align: ['left', 'left', 'left', 'right', 'right'],
  });
}

/** One row per snapshot, newest first. */
export function renderSnapshots(snapshots: readonly SnapshotSummary[]): string {
  const rows = snapshots.map((snapshot) => [
    snapshot.id,
    shortTime(snapshot.timestamp),
    `${snapshot.automatic ? 'auto' : 'manual'}${snapshot.kept ? ', kept' : ''}`,
    formatInteger(snapshot.messageCount),
    formatInteger(snapshot.tokenCount),
    formatInteger(snapshot.checkpointCount),
    snapshot.metadata.reason ?? '',
  ]);
  return renderTable([['snapshot', 'taken', 'kind', 'messages', 'tokens', 'checkpoints', 'reason'], ...rows], {
    align: ['left', 'left', 'left', 'right', 'right', 'right'],
  });
}

/** A whole-session JSON export goes beside the session folder, as `sessions/<id>.json`. */
export function defaultExportPath(home: string, sessionId: string): string {
  return resolveInside(home, 'sessions', `${validateStorageId('session', sessionId)}.json`);
}
