import { existsSync, readFileSync, renameSync } from 'node:fs';
import { stringifyRedacted, writeFileAtomic } from '@ollm/core';
import { resolveInside, validateStorageId, type ContextState } from '@ollm/runtime';

/** Name of the file, in a session's folder, holding the context the next chat resumes from. */
export const ACTIVE_CONTEXT_FILE = 'context.json';

/** What `context.json` holds: the compressed context as it was after the last turn, or a restored snapshot. */
export interface ActiveContextFile {
  readonly version: 1;
  readonly sessionId: string;
  readonly savedAt: string;
  /** Set when `ollm snapshot restore` wrote this file: the chat resumes from that snapshot. */
  readonly restoredFrom?: string;
  readonly context: ContextState;
}

/** `$OLLM_HOME/sessions/<id>/context.json`; the id is validated so the path stays under the home. */
export function activeContextPath(home: string, sessionId: string): string {
  return resolveInside(home, 'sessions', validateStorageId('session', sessionId), ACTIVE_CONTEXT_FILE);
}

/**
 * The saved context, or undefined when there is none. A damaged file (cut, edited, not JSON) must
 * not block the session: it is moved aside to `context.json.damaged-<time>` (nothing is lost:
 * the session record holds every message) and `onDamaged` is told where, and why.
 */
export function readActiveContext(path: string, onDamaged?: (movedTo: string, reason: string) => void): ActiveContextFile | undefined {
  if (!existsSync(path)) return undefined;
  let parsed: ActiveContextFile;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as ActiveContextFile;
  } catch (error) {
    moveAside(path, `not valid JSON (${(error as Error).message})`, onDamaged);
    return undefined;
  }
  if (parsed?.version === 1 && parsed.context && Array.isArray(parsed.context.messages)) return parsed;
  moveAside(path, 'not a saved context (no version 1 context with messages)', onDamaged);
  return undefined;
}

function moveAside(path: string, reason: string, onDamaged: ((movedTo: string, reason: string) => void) | undefined): void {
  const movedTo = `${path}.damaged-${new Date().toISOString().replace(/[-:.]/g, '')}`;
  renameSync(path, movedTo);
  onDamaged?.(movedTo, reason);
}

/**
 * Written atomically (a crash leaves the previous file), with the process's secrets, `secrets`
 * and URL credentials replaced by `[redacted]` in every string before it is serialised.
 */
export function writeActiveContext(path: string, file: ActiveContextFile, secrets: readonly string[] = []): void {
  writeFileAtomic(path, `${stringifyRedacted(file, { secrets })}\n`);
}
