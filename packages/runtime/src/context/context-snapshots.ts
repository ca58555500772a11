import { isCheckpointMessage, OllmError } from '@ollm/core';
import type { ContextEventEmitter } from '../events/context-events.js';
import type { ContextSnapshot, ContextState, SnapshotStore, SnapshotSummary } from '../storage/snapshot-store.js';

/** A session's snapshots as the runtime uses them: saved, listed and read, failures reported as `snapshot-error`. */
export class ContextSnapshots {
  private readonly store: SnapshotStore | undefined;
  private readonly sessionId: string;
  private readonly events: ContextEventEmitter;
  private readonly modelName: string | undefined;

  constructor(input: { store: SnapshotStore | undefined; sessionId: string; events: ContextEventEmitter; modelName: string | undefined }) {
    this.store = input.store;
    this.sessionId = input.sessionId;
    this.events = input.events;
    this.modelName = input.modelName;
  }

  get enabled(): boolean {
    return this.store !== undefined;
  }

  save(reason: string, automatic: boolean, state: ContextState, tokenCount: number): ContextSnapshot {
    const store = this.requireStore();
    try {
      const snapshot = store.create({
        sessionId: this.sessionId,
        automatic,
        context: state,
        tokenCount,
        messageCount: state.messages.length,
        checkpointCount: state.messages.filter(isCheckpointMessage).length,
        metadata: { ...(this.modelName ? { model: this.modelName } : {}), reason },
      });
      if (automatic) this.events.emit('auto-snapshot-created', { snapshotId: snapshot.id });
      else this.events.emit('snapshot-created', { snapshotId: snapshot.id, automatic: false });
      return snapshot;
    } catch (error) {
      this.events.emit('snapshot-error', { operation: 'create', error: error instanceof Error ? error : new Error(String(error)) });
      throw error;
    }
  }

  list(): SnapshotSummary[] {
    return this.store ? this.store.list(this.sessionId) : [];
  }

  read(snapshotId: string): ContextSnapshot {
    const store = this.requireStore();
    try {
      return store.read(this.sessionId, snapshotId);
    } catch (error) {
      this.events.emit('snapshot-error', { operation: 'restore', error: error instanceof Error ? error : new Error(String(error)) });
      throw error;
    }
  }

  private requireStore(): SnapshotStore {
    if (!this.store) throw new OllmError({ code: 'no-snapshot-store', message: 'Snapshots need a snapshot store (ContextManager option `snapshots`).' });
    return this.store;
  }
}
