import { existsSync, readFileSync } from 'node:fs';
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

export function readActiveContext(path: string): ActiveContextFile | undefined {
  if (!existsSync(path)) return undefined;
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as ActiveContextFile;
  return parsed.version === 1 && parsed.context && Array.isArray(parsed.context.messages) ? parsed : undefined;
}

/**
 * Written atomically (a crash leaves the previous file), with the process's secrets, `secrets`
 * and URL credentials replaced by `[redacted]` in every string before it is serialised.
 */
export function writeActiveContext(path: string, file: ActiveContextFile, secrets: readonly string[] = []): void {
  writeFileAtomic(path, `${stringifyRedacted(file, { secrets })}\n`);
}
