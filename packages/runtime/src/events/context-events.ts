import type { CompactionStats, GoalState, GoalUpdate, RemovedContent } from '@ollm/core';
import type { TruncatedToolResult } from '../context/oversized-tool-results.js';
import type { GoalProposal } from '../goals/model-marker-policy.js';

/** The payload of `compacted`: one compaction, every stage that changed the context merged into one result. */
export interface CompactedEvent {
  /** The stages, comma-separated (`mask,trim,goal-aware`). */
  readonly provider: string;
  readonly stages: readonly string[];
  readonly trigger: 'automatic' | 'manual';
  readonly stats: CompactionStats;
  readonly removed: readonly RemovedContent[];
  readonly limitations: readonly string[];
  readonly compactionCount: number;
}

/** Every event the context runtime emits, with its payload (docs/runtime.md lists them). */
export interface ContextEvents {
  /** One per compaction: every stage that changed the context, merged into one result. */
  compacted: CompactedEvent;
  'compaction-skipped': { readonly provider: string; readonly reason: string };
  'compaction-error': { readonly provider: string; readonly error: Error; readonly consecutiveFailures: number; readonly fallback?: string };
  /**
   * Once, when an automatic compaction could not bring the conversation under the trigger (pinned
   * messages alone fill it, say): automatic compaction waits until the conversation holds
   * `retryAt` tokens. Requests are still kept inside the window.
   */
  'compaction-backoff': { readonly tokensAfter: number; readonly trigger: number; readonly retryAt: number; readonly reason: string };
  /** @deprecated Listen to `compacted` (its count is `compactionCount`). Still fires, after `compacted`. */
  compressed: Omit<CompactedEvent, 'compactionCount'> & { readonly compressionCount: number };
  /** @deprecated Listen to `compaction-skipped`. Still fires, with the same payload. */
  'compression-skipped': ContextEvents['compaction-skipped'];
  /** @deprecated Listen to `compaction-error`. Still fires, with the same payload. */
  'compression-error': ContextEvents['compaction-error'];
  'rollover-complete': { readonly provider: string; readonly tokensBefore: number; readonly tokensAfter: number };
  'checkpoint-created': { readonly checkpointId: string; readonly tokens: number };
  'checkpoint-aged': { readonly checkpointId: string; readonly level: number; readonly tokens: number };
  'user-messages-folded': { readonly messageIds: readonly string[]; readonly reason: string };
  'circuit-open': { readonly provider: string; readonly failures: number; readonly fallback: string };
  'snapshot-created': { readonly snapshotId: string; readonly automatic: boolean };
  'snapshot-restored': { readonly snapshotId: string };
  'snapshot-error': { readonly operation: string; readonly error: Error };
  'auto-snapshot-created': { readonly snapshotId: string };
  /**
   * The goal changed: set, ended, or updated by markers in a message or by a compaction (what it
   * read from the span it compacted). `goal` is the goal after the change (none once ended).
   */
  'goal-updated': {
    readonly description: string | undefined;
    readonly goal?: GoalState;
    /** The goal a `finishGoal` ended (completed or abandoned), as it went into the goal history. */
    readonly ended?: GoalState;
    readonly source?: 'user' | 'message' | 'compaction';
    readonly updates?: readonly GoalUpdate[];
  };
  /** A `[GOAL]` or locked `[DECISION]` marker in a reply, applied or not (the `goalMarkers` policy): for the user to see. */
  'goal-proposed': GoalProposal;
  /** Tool results far over `maxToolResultTokens`, cut before a request carried them (not a compaction). */
  'tool-results-truncated': { readonly results: readonly TruncatedToolResult[] };
}

export type ContextEventName = keyof ContextEvents;
export type ContextEventListener<Name extends ContextEventName> = (payload: ContextEvents[Name]) => void;

type Payload = Record<string, unknown>;

/**
 * The deprecated event names: each is the event under its current name, its payload translated
 * both ways (only `compressed` differs: its count is `compressionCount`).
 */
const DEPRECATED_EVENTS: Partial<
  Record<ContextEventName, { readonly name: ContextEventName; readonly toOld: (payload: Payload) => Payload; readonly toNew: (payload: Payload) => Payload }>
> = {
  compressed: {
    name: 'compacted',
    toOld: ({ compactionCount, ...rest }) => ({ ...rest, compressionCount: compactionCount }),
    toNew: ({ compressionCount, ...rest }) => ({ ...rest, compactionCount: compressionCount }),
  },
  'compression-skipped': { name: 'compaction-skipped', toOld: (payload) => payload, toNew: (payload) => payload },
  'compression-error': { name: 'compaction-error', toOld: (payload) => payload, toNew: (payload) => payload },
};

/**
 * A small typed event emitter; a listener that throws is reported to the others, never to the
 * caller. A listener of a deprecated name (`compressed`) hears its event under the current name
 * (`compacted`), after that name's own listeners.
 */
export class ContextEventEmitter {
  private readonly listeners = new Map<ContextEventName, Set<(payload: never) => void>>();
  private readonly oldListeners = new Map<ContextEventName, Set<(payload: never) => void>>();

  on<Name extends ContextEventName>(name: Name, listener: ContextEventListener<Name>): () => void {
    const registry = DEPRECATED_EVENTS[name] ? this.oldListeners : this.listeners;
    let set = registry.get(name);
    if (!set) registry.set(name, (set = new Set()));
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }

  emit<Name extends ContextEventName>(name: Name, payload: ContextEvents[Name]): void {
    const deprecated = DEPRECATED_EVENTS[name];
    if (deprecated) {
      this.emit(deprecated.name, deprecated.toNew(payload as Payload) as never);
      return;
    }
    this.call(this.listeners.get(name), payload);
    for (const [oldName, entry] of Object.entries(DEPRECATED_EVENTS)) {
      if (entry.name === name) this.call(this.oldListeners.get(oldName as ContextEventName), entry.toOld(payload as Payload));
    }
  }

  private call(listeners: Set<(payload: never) => void> | undefined, payload: unknown): void {
    for (const listener of listeners ?? []) {
      try {
        (listener as (payload: unknown) => void)(payload);
      } catch {
        // A broken listener must not break compaction; listeners own their errors.
      }
    }
  }
}
