import type { ContextProviderV1 } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { ProviderRegistry } from '../registry/provider-registry.js';
import { ContextManager } from './context-manager.js';
import { shortenToolResults } from './test-support/test-stages.js';

const filler = (index: number) => `note ${index}: the parser in src/parser.py reads the header, then the body, then the trailer. `.repeat(4);

/**
 * A context whose pinned messages alone are over the trigger (`overWindow`: over the request
 * limit too): no compaction can bring the conversation under it. Every automatic attempt is counted.
 */
function pinnedOverTrigger(overWindow = false) {
  const registry = new ProviderRegistry();
  const attempts = { count: 0 };
  const counting: ContextProviderV1 = {
    ...shortenToolResults,
    name: 'counting',
    compress: (messages, config, context) => {
      attempts.count += 1;
      return shortenToolResults.compress(messages, config, context);
    },
  };
  registry.register(counting);
  const manager = new ContextManager({ contextSize: 4_096, systemPrompt: 'You are terse.', registry, autoPipeline: 'counting' });
  let index = 0;
  const over = () => (overWindow ? !manager.fitsWindow() : manager.budget().conversationTokens > manager.budget().trigger);
  while (!over()) {
    manager.addMessage({ role: index % 2 === 0 ? 'user' : 'assistant', pinned: true, parts: [{ type: 'text', text: filler(index) }] });
    index += 1;
  }
  const backoffs: Array<{ retryAt: number; tokensAfter: number; trigger: number }> = [];
  manager.on('compaction-backoff', (event) => backoffs.push(event));
  return { manager, attempts, backoffs };
}

describe('automatic compaction backs off when it cannot help', () => {
  it('does not try every turn when pinned messages alone are over the trigger, and says so once per back-off', async () => {
    const { manager, attempts, backoffs } = pinnedOverTrigger();
    expect(manager.fitsWindow()).toBe(true);
    const skipped: string[] = [];
    manager.on('compaction-skipped', (event) => skipped.push(event.reason));
    for (let turn = 0; turn < 100; turn += 1) {
      manager.addMessage({ role: turn % 2 === 0 ? 'user' : 'assistant', parts: [{ type: 'text', text: `turn ${turn}` }] });
      await manager.maybeCompact();
    }
    // Without the back-off, each of the 100 turns ran the pipeline.
    expect(attempts.count).toBeGreaterThan(0);
    expect(attempts.count).toBeLessThan(20);
    expect(backoffs.length).toBeGreaterThanOrEqual(1);
    expect(backoffs.length).toBeLessThanOrEqual(attempts.count);
    expect(backoffs[0]!.tokensAfter).toBeGreaterThanOrEqual(backoffs[0]!.trigger);
    expect(backoffs[0]!.retryAt).toBeGreaterThan(backoffs[0]!.tokensAfter);
    expect(skipped.filter((reason) => reason.startsWith('backing off')).length).toBeGreaterThan(50);
  });

  it('tries again once the conversation grew past retryAt', async () => {
    const { manager, attempts, backoffs } = pinnedOverTrigger();
    manager.addMessage({ role: 'user', parts: [{ type: 'text', text: 'first' }] });
    await manager.maybeCompact();
    expect(attempts.count).toBe(1);
    expect(backoffs).toHaveLength(1);
    const { retryAt } = backoffs[0]!;
    manager.addMessage({ role: 'assistant', parts: [{ type: 'text', text: 'short' }] });
    await manager.maybeCompact();
    expect(attempts.count).toBe(1);
    while (manager.budget().conversationTokens < retryAt) manager.addMessage({ role: 'user', parts: [{ type: 'text', text: 'a few more words' }] });
    await manager.maybeCompact();
    expect(attempts.count).toBe(2);
  });

  it('does not back off the window rule: a request that cannot fit is still refused before it is sent', async () => {
    const { manager, attempts } = pinnedOverTrigger(true);
    manager.addMessage({ role: 'user', parts: [{ type: 'text', text: 'first' }] });
    await manager.maybeCompact();
    const before = attempts.count;
    await expect(manager.prepareRequest()).rejects.toThrow(/window|fit/i);
    expect(attempts.count).toBeGreaterThan(before);
  });
});
