import { describe, expect, it } from 'vitest';
import { ProviderRegistry } from '../registry/provider-registry.js';
import { SnapshotStore } from '../storage/snapshot-store.js';
import { ContextManager } from './context-manager.js';
import { temporaryHomes } from './test-support/test-stages.js';

const newHome = temporaryHomes('ollm-restore-');

describe('restoring a snapshot the window cannot take', () => {
  it('refuses one whose latest message cannot fit even alone, leaving the context as it was, and says which window would', () => {
    const manager = new ContextManager({
      contextSize: 2_048,
      registry: new ProviderRegistry(),
      snapshots: new SnapshotStore({ home: newHome() }),
      sessionId: 'paste',
    });
    manager.addMessage({ role: 'user', parts: [{ type: 'text', text: 'hello' }] });
    manager.addMessage({ role: 'assistant', parts: [{ type: 'text', text: 'hi' }] });
    const fitting = manager.createSnapshot('before the paste');
    const paste = manager.addMessage({ role: 'user', parts: [{ type: 'text', text: 'lorem ipsum dolor '.repeat(1_500) }] });
    const over = manager.createSnapshot('holding the paste', true);
    // The chat takes back a message it could not send.
    manager.removeMessage(paste.id);
    const before = manager.state();
    expect(() => manager.restoreSnapshot(over.id)).toThrow(
      new RegExp(`^Snapshot ${over.id} was not restored: its latest message alone is \\d+ tokens.*The context is unchanged.*--context-size \\d+\\)\\.$`),
    );
    expect(manager.state()).toEqual(before);
    expect(manager.fitsWindow()).toBe(true);
    expect(manager.restoreSnapshot(fitting.id).id).toBe(fitting.id);
    expect(manager.activeMessages).toHaveLength(2);
  });

  it('restores one merely over the window: the next request compacts it', async () => {
    const manager = new ContextManager({
      contextSize: 4_096,
      registry: new ProviderRegistry(),
      snapshots: new SnapshotStore({ home: newHome() }),
      sessionId: 'long',
    });
    for (let turn = 0; turn < 12; turn += 1) {
      manager.addMessage({ role: 'user', parts: [{ type: 'text', text: `question ${turn}` }] });
      manager.addMessage({ role: 'assistant', parts: [{ type: 'text', text: `answer ${turn}: ${'detail '.repeat(400)}` }] });
    }
    const long = manager.createSnapshot('long');
    manager.restoreState({ systemPrompt: '', messages: [], compactionCount: 0 });
    manager.restoreSnapshot(long.id);
    expect(manager.fitsWindow()).toBe(false);
    const request = await manager.prepareRequest();
    expect(request.tokens).toBeLessThanOrEqual(request.requestLimit);
  });
});
