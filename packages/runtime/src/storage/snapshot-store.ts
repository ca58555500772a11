import { type GoalState, InvalidArgumentError, type Message, OllmError, SecretRedactor, writeFileAtomic } from '@ollm/core';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { FoldedUserQuote } from '../context/folded-user-quotes.js';
import { resolveInside, validateStorageId } from './storage-id.js';

/**
 * The full state of a conversation's context at one moment. It holds `compactionCount`; a state
 * saved by ollm 0.1 (a snapshot, a session's context.json) holds `compressionCount` instead, and
 * is read the same (`compactionCountOf`).
 */
export type ContextState = ContextStateFields &
  (
    | { readonly compactionCount: number; readonly compressionCount?: undefined }
    | {
        /** @deprecated Use `compactionCount`: the name ollm 0.1 saved it under, still read. */
        readonly compressionCount: number;
        readonly compactionCount?: undefined;
      }
  );

interface ContextStateFields {
  readonly systemPrompt: string;
  readonly messages: readonly Message[];
  readonly goal?: GoalState;
  /** The session's earlier goals, oldest first (completed, abandoned, replaced); missing when there were none. */
  readonly goalHistory?: readonly GoalState[];
  /** Provider-private state (e.g. goal-aware checkpoints), as plain JSON. */
  readonly providerState?: Readonly<Record<string, unknown>>;
  /** User messages the window guard folded out, kept as quotes in the system message. */
  readonly foldedQuotes?: readonly FoldedUserQuote[];
  /**
   * Of the compactions, those in which a model wrote a summary (what reliability counts). A state
   * saved before it was kept counts every compaction (`summaryCountOf`).
   */
  readonly summaryCount?: number;
}

/** The compactions with a model summary a state had been through; all of them for a state saved before they were counted apart. */
export function summaryCountOf(state: ContextState): number {
  return state.summaryCount ?? compactionCountOf(state);
}

/** The compactions a context state had been through, whichever name it was saved with. */
export function compactionCountOf(state: ContextState): number {
  return state.compactionCount ?? state.compressionCount ?? 0;
}

export interface ContextSnapshot {
  readonly id: string;
  readonly sessionId: string;
  readonly timestamp: string;
  readonly automatic: boolean;
  readonly context: ContextState;
  readonly tokenCount: number;
  readonly messageCount: number;
  readonly checkpointCount: number;
  /**
   * The model the context was sent to, and why the snapshot was taken. (The design's `tier` and
   * `mode` are not recorded: ollm has no context tiers or operating modes; a snapshot that holds
   * them from elsewhere keeps them, unread.)
   */
  readonly metadata: { readonly model?: string; readonly reason?: string };
  /**
   * Kept: never pruned by either quota (`SnapshotStore.keep`, `ollm snapshot keep`). Read from a
   * `<id>.keep` file beside the snapshot, so the snapshot itself never changes after creation.
   */
  readonly kept?: boolean;
}

export type SnapshotSummary = Omit<ContextSnapshot, 'context'>;

let lastStamp = '';
let sequence = 0;

/** Manual snapshots a session keeps by default: they are the user's, pruned only by other manual ones. */
export const DEFAULT_RETAIN_MANUAL = 100;

/**
 * Sortable ids: time to the millisecond, then a sequence within it, so listing by name is listing
 * by age; then `a` (automatic) or `m` (manual), so pruning knows which quota a file counts in
 * without reading it.
 */
function nextSnapshotId(timestamp: string, automatic: boolean): string {
  const stamp = timestamp.replace(/[-:.TZ]/g, '');
  sequence = stamp === lastStamp ? sequence + 1 : 0;
  lastStamp = stamp;
  return `${stamp}-${String(sequence).padStart(3, '0')}-${randomUUID().slice(0, 6)}-${automatic ? 'a' : 'm'}`;
}

/**
 * Snapshots under `$OLLM_HOME/snapshots/<session>/<id>.json`, written atomically, never changed
 * after creation; `retain` keeps the newest N automatic ones (default 20), `retainManual` the
 * newest N manual ones (default 100): an automatic snapshot never prunes a manual one.
 */
export class SnapshotStore {
  private readonly home: string;
  private readonly retain: number;
  private readonly retainManual: number;
  private readonly redactor: SecretRedactor;
  private readonly clock: () => Date;
  private readonly onDamaged: ((path: string, error: Error) => void) | undefined;

  constructor({
    home,
    retain = 20,
    retainManual = DEFAULT_RETAIN_MANUAL,
    secrets = [],
    clock = () => new Date(),
    onDamaged,
  }: {
    home: string;
    retain?: number;
    retainManual?: number;
    secrets?: readonly string[];
    clock?: () => Date;
    /** Told of each snapshot `list` skipped because it could not be read (cut, edited, not JSON). */
    onDamaged?: (path: string, error: Error) => void;
  }) {
    this.home = home;
    this.retain = retain;
    this.retainManual = retainManual;
    this.redactor = new SecretRedactor(secrets, { urlCredentials: 'keep' });
    this.clock = clock;
    this.onDamaged = onDamaged;
  }

  create(snapshot: Omit<ContextSnapshot, 'id' | 'timestamp' | 'kept'>, options: { readonly keep?: boolean } = {}): ContextSnapshot {
    validateStorageId('session', snapshot.sessionId);
    const timestamp = this.clock().toISOString();
    const id = nextSnapshotId(timestamp, snapshot.automatic);
    const full: ContextSnapshot = { ...snapshot, id, timestamp };
    writeFileAtomic(this.file(snapshot.sessionId, id), this.redactor.stringify(full));
    if (options.keep) writeFileAtomic(this.keepFile(snapshot.sessionId, id), '');
    this.prune(snapshot.sessionId);
    return options.keep ? { ...full, kept: true } : full;
  }

  /**
   * Marks a snapshot kept (never pruned) or, with `kept` false, lets the quotas count it again.
   * The mark is a `<id>.keep` file beside it: the snapshot itself is not rewritten.
   */
  keep(sessionId: string, idOrPrefix: string, kept = true): void {
    const snapshotId = this.resolveId(sessionId, idOrPrefix);
    if (kept) writeFileAtomic(this.keepFile(sessionId, snapshotId), '');
    else rmSync(this.keepFile(sessionId, snapshotId), { force: true });
  }

  list(sessionId: string): SnapshotSummary[] {
    const folder = this.folder(sessionId);
    if (!existsSync(folder)) return [];
    return readdirSync(folder)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .reverse()
      .flatMap((name) => {
        // One damaged snapshot must not hide the others: it is skipped and reported.
        try {
          const { context: _context, ...summary } = this.read(sessionId, name.slice(0, -'.json'.length));
          return [summary];
        } catch (error) {
          this.onDamaged?.(resolveInside(folder, name), error instanceof Error ? error : new Error(String(error)));
          return [];
        }
      });
  }

  /** Reads a snapshot by its id or a part that names one alone (`resolveId`). */
  read(sessionId: string, idOrPrefix: string): ContextSnapshot {
    const snapshotId = this.resolveId(sessionId, idOrPrefix);
    const path = this.file(sessionId, snapshotId);
    const snapshot = parseSnapshot(readFileSync(path, 'utf8'), path);
    return existsSync(this.keepFile(sessionId, snapshotId)) ? { ...snapshot, kept: true } : snapshot;
  }

  delete(sessionId: string, idOrPrefix: string): void {
    const snapshotId = this.resolveId(sessionId, idOrPrefix);
    rmSync(this.file(sessionId, snapshotId));
    rmSync(this.keepFile(sessionId, snapshotId), { force: true });
  }

  /**
   * The full id of the snapshot `idOrPrefix` names: the id itself, or a part only one snapshot of
   * the session has: the start of its id (`20261130063618`) or of its random part (`85afea`).
   * Ids are 30 characters; a few are enough to type. An unknown or ambiguous part is an error
   * that lists what it matched.
   */
  resolveId(sessionId: string, idOrPrefix: string): string {
    const text = idOrPrefix.trim();
    if (existsSync(this.file(sessionId, text))) return text;
    const folder = this.folder(sessionId);
    const ids = existsSync(folder)
      ? readdirSync(folder)
          .filter((name) => name.endsWith('.json'))
          .map((name) => name.slice(0, -'.json'.length))
      : [];
    const matches = text.length === 0 ? [] : ids.filter((id) => id.startsWith(text) || (text.length >= 4 && id.split('-')[2]?.startsWith(text)));
    if (matches.length === 1) return matches[0]!;
    if (matches.length === 0) {
      throw new InvalidArgumentError({ argument: 'snapshotId', message: `No snapshot "${text}" in session "${sessionId}".` });
    }
    const shown = matches.sort().slice(0, 5).join(', ');
    throw new InvalidArgumentError({
      argument: 'snapshotId',
      message: `"${text}" names ${matches.length} snapshots in session "${sessionId}" (${shown}${matches.length > 5 ? ', …' : ''}): give more of the id.`,
    });
  }

  /**
   * Each quota on its own: the oldest automatic snapshots past `retain`, the oldest manual ones
   * past `retainManual`. Kept snapshots are in neither: never pruned, and they take no place.
   */
  private prune(sessionId: string): void {
    const folder = this.folder(sessionId);
    const files = readdirSync(folder);
    const keptNames = new Set(files.filter((name) => name.endsWith('.keep')).map((name) => `${name.slice(0, -'.keep'.length)}.json`));
    const names = files.filter((name) => name.endsWith('.json') && !keptNames.has(name)).sort();
    const automatic = names.filter((name) => this.isAutomatic(sessionId, name));
    const manual = names.filter((name) => !automatic.includes(name));
    for (const [kept, retain] of [
      [automatic, this.retain],
      [manual, this.retainManual],
    ] as const) {
      for (const name of kept.slice(0, Math.max(0, kept.length - retain))) rmSync(resolveInside(folder, name));
    }
  }

  /** From the id's last letter; a snapshot written before ids had one is read to tell. */
  private isAutomatic(sessionId: string, name: string): boolean {
    if (name.endsWith('-a.json')) return true;
    if (name.endsWith('-m.json')) return false;
    try {
      return this.read(sessionId, name.slice(0, -'.json'.length)).automatic !== false;
    } catch {
      return true;
    }
  }

  private folder(sessionId: string): string {
    return resolveInside(this.home, 'snapshots', validateStorageId('session', sessionId));
  }

  private keepFile(sessionId: string, snapshotId: string): string {
    return resolveInside(this.folder(sessionId), `${validateStorageId('snapshot', snapshotId)}.keep`);
  }

  private file(sessionId: string, snapshotId: string): string {
    return resolveInside(this.folder(sessionId), `${validateStorageId('snapshot', snapshotId)}.json`);
  }
}

/** A snapshot file's JSON, or an error naming the file: a cut or edited snapshot says where it is. */
function parseSnapshot(text: string, path: string): ContextSnapshot {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new OllmError({ code: 'damaged-snapshot', message: `The snapshot ${path} is damaged: ${(error as Error).message}.`, cause: error });
  }
  const context = (parsed as { context?: { messages?: unknown } } | null)?.context;
  if (parsed === null || typeof parsed !== 'object' || !Array.isArray(context?.messages)) {
    throw new OllmError({ code: 'damaged-snapshot', message: `The snapshot ${path} is damaged: it holds no context with messages.` });
  }
  return parsed as ContextSnapshot;
}
