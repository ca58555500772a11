import { buildCompactionResult, type ContextProviderV1, type Message } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { ProviderRegistry } from '../registry/provider-registry.js';
import { ContextManager } from './context-manager.js';

/** Shortens tool results, then waits like a model call would; counts its runs. */
function slowStage(runs: { count: number }): ContextProviderV1 {
  return {
    specificationVersion: 'v1',
    name: 'slow',
    description: 'test stage',
    shouldCompress: () => true,
    async compress(messages, config, context) {
      runs.count += 1;
      const startedAt = performance.now();
      const output = messages.map((message): Message =>
        message.role !== 'tool'
          ? message
          : { ...message, parts: message.parts.map((part) => (part.type === 'tool-result' ? { ...part, output: part.output.slice(0, 20) } : part)) },
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
      return buildCompactionResult({ input: messages, output, tokens: context.tokens, startedAt });
    },
  };
}

function fill(manager: ContextManager, turns: number): void {
  for (let turn = 0; turn < turns; turn += 1) {
    manager.addMessage({ role: 'user', parts: [{ type: 'text', text: `question ${turn}` }] });
    manager.addMessage({ role: 'assistant', parts: [{ type: 'tool-call', callId: `call-${turn}`, name: 'bash', input: { command: 'ls' } }] });
    manager.addMessage({ role: 'tool', parts: [{ type: 'tool-result', callId: `call-${turn}`, output: 'file '.repeat(300) }] });
  }
}

describe('ContextManager while a compaction is running', () => {
  it('keeps a message added during the compaction, after the compacted context', async () => {
    const registry = new ProviderRegistry();
    registry.register(slowStage({ count: 0 }));
    const manager = new ContextManager({ contextSize: 2_000, registry, autoPipeline: 'slow' });
    fill(manager, 5);
    const running = manager.compact('slow');
    const late = manager.addMessage({ role: 'user', parts: [{ type: 'text', text: 'typed during the compression' }] });
    await running;
    expect(manager.activeMessages.at(-1)).toBe(late);
    expect(manager.compactionCount).toBe(1);
  });

  it('runs one automatic compaction at a time; a manual request waits for it', async () => {
    const registry = new ProviderRegistry();
    const runs = { count: 0 };
    registry.register(slowStage(runs));
    const manager = new ContextManager({ contextSize: 2_000, registry, autoPipeline: 'slow' });
    fill(manager, 5);
    const [first, second] = await Promise.all([manager.maybeCompact(), manager.maybeCompact()]);
    expect(first?.provider).toBe('slow');
    expect(second).toBeUndefined();
    expect(runs.count).toBe(1);
    fill(manager, 1);
    const automatic = manager.maybeCompact();
    const manual = manager.compact('slow');
    await Promise.all([automatic, manual]);
    expect(manager.compactionCount).toBe(runs.count);
  });
});
