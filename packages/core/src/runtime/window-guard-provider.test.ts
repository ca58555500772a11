import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderRegistry } from '../registry/provider-registry.js';
import { readRemovedContent } from '../recovery/recovery-store.js';
import { SessionHistory, readSession } from '../storage/session-history.js';
import type { Message } from '../messages/message.js';
import { ContextManager } from './context-manager.js';
import { WINDOW_GUARD_FOLD_REASON } from './window-guard-provider.js';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

describe('the window guard when user messages alone outgrow the window (no model to fold them)', () => {
  it('folds the oldest user messages, says so, and never sends more than the window', async () => {
    const home = mkdtempSync(join(tmpdir(), 'ollm-guard-'));
    homes.push(home);
    const history = new SessionHistory({ home, sessionId: 'users' });
    const manager = new ContextManager({ contextSize: 2_000, registry: new ProviderRegistry(), autoPipeline: '', history, logdir: home, systemPrompt: 'Be brief.' });
    const folded: { messageIds: readonly string[]; reason: string }[] = [];
    manager.on('user-messages-folded', (event) => folded.push(event));
    const added: Message[] = [];
    const pinned = manager.addMessage({ role: 'user', parts: [{ type: 'text', text: 'Rules: never delete data.' }], pinned: true });
    added.push(pinned);
    for (let turn = 0; turn < 60; turn += 1) {
      const question = manager.addMessage({ role: 'user', parts: [{ type: 'text', text: `Question ${turn}: ${'why '.repeat(60)}` }] });
      added.push(question, manager.addMessage({ role: 'assistant', parts: [{ type: 'text', text: `Answer ${turn}.` }] }));
      await manager.maybeCompress();
      expect(manager.tokens.countMessages(manager.messagesForModel()), `turn ${turn}`).toBeLessThanOrEqual(2_000);
      expect(manager.activeMessages).toContain(pinned);
      expect(manager.activeMessages).toContain(question);
    }
    expect(folded.length).toBeGreaterThan(0);
    expect(folded[0]!.reason).toBe(WINDOW_GUARD_FOLD_REASON);
    history.close();
    expect(readSession(home, 'users').messages).toEqual(added);
    // A folded message can be read back byte for byte from logdir.
    const firstFolded = added.find((message) => message.id === folded[0]!.messageIds[0])!;
    expect(JSON.parse(readRemovedContent(home, sha256Of(firstFolded)))).toEqual(firstFolded);
  });
});

function sha256Of(message: Message): string {
  return createHash('sha256').update(JSON.stringify(message)).digest('hex');
}
