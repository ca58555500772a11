import { InvalidArgumentError, InvalidTranscriptError, OllmError, SecretRedactor, type GoalState, type Message } from '@ollm/core';
import { closeSync, existsSync, fstatSync, ftruncateSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { resolveInside, validateStorageId } from './storage-id.js';
import { withFileLock } from './file-lock.js';

export const HISTORY_FILE = 'history.jsonl';

export type SessionEntry =
  | { readonly type: 'session'; readonly sessionId: string; readonly startTime: string; readonly model?: string; readonly provider?: string }
  | { readonly type: 'message'; readonly message: Message; readonly tokens?: number; readonly at: string }
  | { readonly type: 'compaction'; readonly provider: string; readonly tokensBefore: number; readonly tokensAfter: number; readonly at: string }
  /** How ollm 0.1 wrote a compaction entry; read as `compaction`. */
  | { readonly type: 'compression'; readonly provider: string; readonly tokensBefore: number; readonly tokensAfter: number; readonly at: string }
  | { readonly type: 'metadata'; readonly model?: string; readonly provider?: string; readonly at: string }
  /** The goal as it stood after a change (set, checkpoint, decision, artifact, next step): the whole state, each time. */
  | { readonly type: 'goal'; readonly goal: GoalState; readonly at: string };

export interface SessionRecord {
  readonly sessionId: string;
  readonly startTime: string;
  readonly lastActivity: string;
  readonly model?: string;
  readonly provider?: string;
  readonly messages: readonly Message[];
  /** Every goal state recorded (`appendGoal`), oldest first; empty for files written before goals were recorded. */
  readonly goals: readonly GoalState[];
  readonly metadata: {
    readonly tokenCount: number;
    readonly compactionCount: number;
    /** @deprecated Use `compactionCount` (the same number). */
    readonly compressionCount: number;
    readonly messageCount: number;
  };
  /** True when the last line was cut by a crash and ignored. */
  readonly recoveredFromPartialWrite: boolean;
}

export interface SessionHistoryOptions {
  readonly home: string;
  readonly sessionId: string;
  readonly model?: string;
  readonly provider?: string;
  /**
   * Values (API keys) replaced by `[redacted]` in anything written, besides the secrets
   * registered for the process (`registerSecret`) and URL credentials.
   */
  readonly secrets?: readonly string[];
  /** The time entries are stamped with; tests inject one. Default the system clock. */
  readonly clock?: () => Date;
}

/**
 * The full record of a session, never compacted: `$OLLM_HOME/sessions/<id>/history.jsonl`, one JSON
 * entry per line, appended and never rewritten. An append costs the same at turn 10 and 100,000.
 * Each append is one write under a cross-process lock, after repairing a line a crashed writer may
 * have cut, so a SIGKILL loses at most the entry being written and two writers never interleave.
 */
export class SessionHistory {
  readonly sessionId: string;
  readonly path: string;
  private readonly lockPath: string;
  private readonly redactor: SecretRedactor;
  private readonly clock: () => Date;
  private descriptor: number | undefined;

  constructor(options: SessionHistoryOptions) {
    this.sessionId = validateStorageId('session', options.sessionId);
    const folder = resolveInside(options.home, 'sessions', this.sessionId);
    mkdirSync(folder, { recursive: true });
    this.path = resolveInside(folder, HISTORY_FILE);
    this.lockPath = `${this.path}.lock`;
    this.redactor = new SecretRedactor(options.secrets, { urlCredentials: 'keep' });
    this.clock = options.clock ?? (() => new Date());
    this.descriptor = openSync(this.path, 'a+');
    // The header is written once, by whichever writer finds the file empty under the lock.
    this.write(
      { type: 'session', sessionId: this.sessionId, startTime: this.clock().toISOString(), model: options.model, provider: options.provider },
      { onlyIfEmpty: true },
    );
  }

  append(message: Message, tokens?: number): void {
    this.write({ type: 'message', message, tokens, at: this.now() });
  }

  recordCompaction(entry: { provider: string; tokensBefore: number; tokensAfter: number }): void {
    this.write({ type: 'compaction', ...entry, at: this.now() });
  }

  /** @deprecated Use `recordCompaction` (it writes the same entry). */
  recordCompression(entry: { provider: string; tokensBefore: number; tokensAfter: number }): void {
    this.recordCompaction(entry);
  }

  recordMetadata(entry: { model?: string; provider?: string }): void {
    this.write({ type: 'metadata', ...entry, at: this.now() });
  }

  /**
   * Records the goal as it stands now, whole (a later entry supersedes an earlier one), redacted
   * like every entry; what `ollm sessions search` finds a goal's description, checkpoints,
   * decisions, artifacts and next step in.
   */
  appendGoal(goal: GoalState): void {
    this.write({ type: 'goal', goal, at: this.now() });
  }

  private now(): string {
    return this.clock().toISOString();
  }

  read(): SessionRecord {
    return readSessionFile(this.path);
  }

  close(): void {
    if (this.descriptor !== undefined) closeSync(this.descriptor);
    this.descriptor = undefined;
  }

  private write(entry: SessionEntry, { onlyIfEmpty = false } = {}): void {
    const descriptor = this.descriptor;
    if (descriptor === undefined)
      throw new OllmError({ code: 'session-closed', message: `Session ${this.sessionId} is closed: nothing more can be recorded in it.` });
    // Redacted before it is serialised: a key with a quote or a backslash is found as it is.
    const line = `${this.redactor.stringify(entry)}\n`;
    withFileLock(this.lockPath, () => {
      if (onlyIfEmpty && fstatSync(descriptor).size > 0) return;
      repairCutLine(descriptor);
      writeSync(descriptor, line);
    });
  }
}

/** If a crashed writer left a line without its newline, cut the file back to the last full line. */
function repairCutLine(descriptor: number): void {
  const size = fstatSync(descriptor).size;
  if (size === 0) return;
  const last = Buffer.alloc(1);
  readSync(descriptor, last, 0, 1, size - 1);
  if (last[0] === 0x0a) return;
  const chunk = Buffer.alloc(Math.min(size, 1 << 20));
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    const length = end - start;
    readSync(descriptor, chunk, 0, length, start);
    const newline = chunk.subarray(0, length).lastIndexOf(0x0a);
    if (newline >= 0) {
      ftruncateSync(descriptor, start + newline + 1);
      return;
    }
    end = start;
  }
  ftruncateSync(descriptor, 0);
}

/** Reads a history file; a last line cut by a crash is ignored (and reported), any other bad line is an error. */
export function readSessionFile(path: string): SessionRecord {
  const complete = readFileSync(path, 'utf8').split('\n');
  // Every entry ends with a newline; text after the last one is an entry a crash cut short.
  let recoveredFromPartialWrite = complete.pop() !== '';
  const entries: SessionEntry[] = [];
  complete.forEach((line, index) => {
    if (line.length === 0) return;
    try {
      entries.push(JSON.parse(line) as SessionEntry);
    } catch (error) {
      if (index === complete.length - 1) recoveredFromPartialWrite = true;
      else
        throw new InvalidTranscriptError({ file: path, position: `line ${index + 1}`, reason: `not valid JSON (${(error as Error).message})`, cause: error });
    }
  });
  const header = entries.find((entry) => entry.type === 'session');
  let model = header?.type === 'session' ? header.model : undefined;
  let provider = header?.type === 'session' ? header.provider : undefined;
  const messages: Message[] = [];
  const goals: GoalState[] = [];
  let tokenCount = 0;
  let compactionCount = 0;
  let lastActivity = header?.type === 'session' ? header.startTime : '';
  for (const entry of entries) {
    if (entry.type === 'message') {
      messages.push(entry.message);
      tokenCount += entry.tokens ?? 0;
      lastActivity = entry.at;
    } else if (entry.type === 'compaction' || entry.type === 'compression') {
      compactionCount += 1;
      lastActivity = entry.at;
    } else if (entry.type === 'metadata') {
      model = entry.model ?? model;
      provider = entry.provider ?? provider;
    } else if (entry.type === 'goal') {
      goals.push(entry.goal);
    }
  }
  return {
    sessionId: header?.type === 'session' ? header.sessionId : '',
    startTime: header?.type === 'session' ? header.startTime : '',
    lastActivity,
    ...(model !== undefined ? { model } : {}),
    ...(provider !== undefined ? { provider } : {}),
    messages,
    goals,
    metadata: { tokenCount, compactionCount, compressionCount: compactionCount, messageCount: messages.length },
    recoveredFromPartialWrite,
  };
}

export function readSession(home: string, sessionId: string): SessionRecord {
  validateStorageId('session', sessionId);
  const path = resolveInside(home, 'sessions', sessionId, HISTORY_FILE);
  if (!existsSync(path))
    throw new InvalidArgumentError({ argument: 'session', message: `No session "${sessionId}" under ${home} (see \`ollm sessions list\`).` });
  return readSessionFile(path);
}

export function listSessions(home: string): SessionRecord[] {
  const folder = resolveInside(home, 'sessions');
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(resolveInside(folder, entry.name, HISTORY_FILE)))
    .map((entry) => readSessionFile(resolveInside(folder, entry.name, HISTORY_FILE)))
    .sort((a, b) => b.lastActivity.localeCompare(a.lastActivity));
}

export function deleteSession(home: string, sessionId: string): void {
  validateStorageId('session', sessionId);
  rmSync(resolveInside(home, 'sessions', sessionId), { recursive: true, force: true });
}
