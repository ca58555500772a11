import type { CompactionStats, RemovedContent } from '@ollm/core';
import type { TruncatedToolResult } from '../context/oversized-tool-results.js';

/** Every event the context runtime emits, with its payload (docs/runtime.md lists them). */
export interface ContextEvents {
  /** One per compression: every stage that changed the context, merged into one result. */
  compressed: {
    /** The stages, comma-separated (`mask,trim,goal-aware`). */
    readonly provider: string;
    readonly stages: readonly string[];
    readonly trigger: 'automatic' | 'manual';
    readonly stats: CompactionStats;
    readonly removed: readonly RemovedContent[];
    readonly limitations: readonly string[];
    readonly compressionCount: number;
  };
  'compression-skipped': { readonly provider: string; readonly reason: string };
  'compression-error': { readonly provider: string; readonly error: Error; readonly consecutiveFailures: number; readonly fallback?: string };
  'rollover-complete': { readonly provider: string; readonly tokensBefore: number; readonly tokensAfter: number };
  'checkpoint-created': { readonly checkpointId: string; readonly tokens: number };
  'checkpoint-aged': { readonly checkpointId: string; readonly level: number; readonly tokens: number };
  'user-messages-folded': { readonly messageIds: readonly string[]; readonly reason: string };
  'circuit-open': { readonly provider: string; readonly failures: number; readonly fallback: string };
  'snapshot-created': { readonly snapshotId: string; readonly automatic: boolean };
  'snapshot-restored': { readonly snapshotId: string };
  'snapshot-error': { readonly operation: string; readonly error: Error };
  'auto-snapshot-created': { readonly snapshotId: string };
  'goal-updated': { readonly description: string | undefined };
  /** Tool results far over `maxToolResultTokens`, cut before a request carried them (not a compression). */
  'tool-results-truncated': { readonly results: readonly TruncatedToolResult[] };
}

export type ContextEventName = keyof ContextEvents;
export type ContextEventListener<Name extends ContextEventName> = (payload: ContextEvents[Name]) => void;

/** A small typed event emitter; a listener that throws is reported to the others, never to the caller. */
export class ContextEventEmitter {
  private readonly listeners = new Map<ContextEventName, Set<(payload: never) => void>>();

  on<Name extends ContextEventName>(name: Name, listener: ContextEventListener<Name>): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }

  emit<Name extends ContextEventName>(name: Name, payload: ContextEvents[Name]): void {
    for (const listener of this.listeners.get(name) ?? []) {
      try {
        (listener as ContextEventListener<Name>)(payload);
      } catch {
        // A broken listener must not break compression; listeners own their errors.
      }
    }
  }
}
