import { buildCompactionResult, type ContextProviderV1, type LanguageModel, type Message } from '@ollm/core';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProviderRegistry } from '../registry/provider-registry.js';
import { SessionHistory, readSession } from '../storage/session-history.js';
import { SnapshotStore } from '../storage/snapshot-store.js';
import type { ContextEventName } from '../events/context-events.js';
import { ContextManager } from './context-manager.js';
import { shortenToolResults, temporaryHomes } from './test-support/test-stages.js';

const newHome = temporaryHomes('ollm-runtime-');

/** A second rule-based stage: keeps the first half of every assistant text part. */
const halveAssistantText: ContextProviderV1 = {
  specificationVersion: 'v1',
  name: 'halve',
  description: 'test stage',
  shouldCompress: () => true,
  async compress(messages, config, context) {
    const startedAt = performance.now();
    const output = messages.map((message) =>
      message.role !== 'assistant'
        ? message
        : {
            ...message,
            parts: message.parts.map((part) => (part.type === 'text' ? { ...part, text: part.text.slice(0, Math.ceil(part.text.length / 2)) } : part)),
          },
    );
    return buildCompactionResult({ input: messages, output, tokens: context.tokens, startedAt });
  },
};

/** A model stage (as goal-aware or summarize): halves assistant texts, reporting one model call. */
const summarizingStage: ContextProviderV1 = {
  ...halveAssistantText,
  name: 'summary-test',
  description: 'test model stage',
  async compress(messages, config, context) {
    const result = await halveAssistantText.compress(messages, config, context);
    return { ...result, stats: { ...result.stats, modelCalls: 1, modelInputTokens: 100, modelOutputTokens: 20 } };
  },
};

function failingStage(name: string, calls: { count: number }): ContextProviderV1 {
  return {
    specificationVersion: 'v1',
    name,
    description: 'always fails',
    shouldCompress: () => true,
    async compress() {
      calls.count += 1;
      throw new Error('model server refused the connection');
    },
  };
}

/** A model stage that returns its input unchanged, reporting `modelCalls` calls made. */
function unchangedModelStage(modelCalls: number): ContextProviderV1 {
  return {
    specificationVersion: 'v1',
    name: 'unchanged',
    description: 'saves nothing',
    shouldCompress: () => true,
    async compress(messages, config, context) {
      const startedAt = performance.now();
      return buildCompactionResult({
        input: messages,
        output: messages,
        tokens: context.tokens,
        startedAt,
        limitations: ['nothing to do'],
        modelStats: { modelCalls, modelInputTokens: 0, modelOutputTokens: 0 },
      });
    },
  };
}

/** A model stage that throws while `state.broken`, else shortens tool results as one model call would. */
function switchableModelStage(state: { broken: boolean; calls: number }): ContextProviderV1 {
  return {
    ...shortenToolResults,
    name: 'switchable',
    async compress(messages, config, context) {
      state.calls += 1;
      if (state.broken) throw new Error('model server refused the connection');
      const result = await shortenToolResults.compress(messages, config, context);
      return { ...result, stats: { ...result.stats, modelCalls: 1 } };
    },
  };
}

const unusedModel: LanguageModel = {
  specificationVersion: 'v1',
  provider: 'test',
  modelId: 'test:8b',
  complete: async () => {
    throw new Error('not called by these stages');
  },
};

let turn = 0;
function addTurn(manager: ContextManager, outputSize = 600, assistantWords = 0): void {
  turn += 1;
  const callId = `call-${turn}`;
  manager.addMessage({ role: 'user', parts: [{ type: 'text', text: `Please run step ${turn}.` }] });
  manager.addMessage({
    role: 'assistant',
    parts: [
      { type: 'text', text: `Running step ${turn}.${' because'.repeat(assistantWords)}` },
      { type: 'tool-call', callId, name: 'bash', input: { command: `step ${turn}` } },
    ],
  });
  manager.addMessage({ role: 'tool', parts: [{ type: 'tool-result', callId, output: `output ${turn} `.repeat(outputSize / 3) }] });
}

function record(manager: ContextManager): Record<string, number> {
  const counts: Record<string, number> = {};
  const names: ContextEventName[] = [
    'compacted',
    'compaction-error',
    'compaction-skipped',
    'circuit-open',
    'auto-snapshot-created',
    'snapshot-restored',
    'goal-updated',
  ];
  for (const name of names) manager.on(name, () => (counts[name] = (counts[name] ?? 0) + 1));
  return counts;
}

describe('ContextManager', () => {
  it('computes the budget and its trigger, with 15% of the window kept for the reply', () => {
    const manager = new ContextManager({ contextSize: 16_000, systemPrompt: 'x '.repeat(500), registry: new ProviderRegistry() });
    const budget = manager.budget();
    expect(budget.replyReserve).toBe(2_400);
    expect(budget.requestLimit).toBe(13_600);
    expect(budget.systemTokens).toBeGreaterThan(450);
    expect(budget.available).toBe(13_600 - budget.systemTokens - budget.checkpointTokens);
    expect(budget.trigger).toBe(Math.floor(budget.available * 0.8));
  });

  it('takes a configured reply reserve and refuses one that leaves less than half the window', () => {
    expect(new ContextManager({ contextSize: 4_096, replyReserve: 512, registry: new ProviderRegistry() }).budget().requestLimit).toBe(3_584);
    expect(() => new ContextManager({ contextSize: 4_096, replyReserve: 3_000, registry: new ProviderRegistry() })).toThrow(
      /must be a whole number of tokens from 16 to half the window \(2048 of 4096\); got 3000/,
    );
  });

  it('compacts automatically at the threshold and never sends more than the window', async () => {
    const registry = new ProviderRegistry();
    registry.register(shortenToolResults);
    const manager = new ContextManager({ contextSize: 4_000, registry, autoPipeline: 'shorten' });
    const counts = record(manager);
    for (let index = 0; index < 40; index += 1) {
      addTurn(manager);
      await manager.maybeCompact();
      expect(manager.tokens.countMessages(manager.messagesForModel())).toBeLessThanOrEqual(4_000);
    }
    expect(counts.compacted).toBeGreaterThan(0);
    expect(manager.compactionCount).toBe(counts.compacted);
  });

  it('counts a compaction that took several stages once, with one compacted event naming them', async () => {
    const registry = new ProviderRegistry();
    registry.register(shortenToolResults);
    registry.register(halveAssistantText);
    const home = newHome();
    const history = new SessionHistory({ home, sessionId: 'stages' });
    const manager = new ContextManager({ contextSize: 3_000, registry, autoPipeline: 'shorten,halve', history });
    const compacted: { provider: string; stages: readonly string[]; compactionCount: number }[] = [];
    manager.on('compacted', (payload) => compacted.push(payload));
    let outcome;
    for (let index = 0; index < 40 && !outcome; index += 1) {
      addTurn(manager, 600, 1000);
      outcome = await manager.maybeCompact();
    }
    expect(outcome?.provider).toBe('shorten,halve');
    expect(compacted).toEqual([{ ...compacted[0], provider: 'shorten,halve', stages: ['shorten', 'halve'], compactionCount: 1 }]);
    expect(manager.compactionCount).toBe(1);
    expect(readSession(home, 'stages').metadata.compactionCount).toBe(1);
  });

  it('opens the circuit after 3 model failures, falls back to rule-based stages, and says so', async () => {
    const registry = new ProviderRegistry();
    const calls = { count: 0 };
    registry.register(failingStage('flaky-model', calls));
    const manager = new ContextManager({ contextSize: 3_000, registry, autoPipeline: 'flaky-model', modelProviders: ['flaky-model'], model: unusedModel });
    const counts = record(manager);
    for (let index = 0; index < 30; index += 1) {
      addTurn(manager);
      await manager.maybeCompact();
      expect(manager.tokens.countMessages(manager.messagesForModel())).toBeLessThanOrEqual(3_000);
    }
    expect(calls.count).toBe(3);
    expect(counts['compaction-error']).toBe(3);
    expect(counts['circuit-open']).toBe(1);
    expect(counts['compaction-skipped']).toBeGreaterThan(0);
    // The window guard kept the conversation inside the window without the model.
    expect(counts.compacted).toBeGreaterThan(0);
  });

  it('counts a model stage that saved nothing as a failure only when it called the model', async () => {
    for (const modelCalls of [0, 1]) {
      const registry = new ProviderRegistry();
      registry.register(unchangedModelStage(modelCalls));
      const manager = new ContextManager({ contextSize: 3_000, registry, autoPipeline: 'unchanged', modelProviders: ['unchanged'], model: unusedModel });
      const counts = record(manager);
      for (let index = 0; index < 20; index += 1) {
        addTurn(manager);
        await manager.maybeCompact();
      }
      // Nothing to summarise costs nothing and is retried; paying for no saving opens the circuit.
      expect(counts['circuit-open'] ?? 0, `modelCalls ${modelCalls}`).toBe(modelCalls === 0 ? 0 : 1);
      expect(counts['compaction-error'] ?? 0).toBe(0);
    }
  });

  it('writes an automatic snapshot only for attempts that compacted, holding the context they replaced', async () => {
    const registry = new ProviderRegistry();
    registry.register(unchangedModelStage(0));
    const snapshots = new SnapshotStore({ home: newHome() });
    const manager = new ContextManager({ contextSize: 3_000, registry, autoPipeline: 'unchanged', snapshots, sessionId: 'lazy' });
    const counts = record(manager);
    let replaced: readonly Message[] = [];
    for (let index = 0; index < 20; index += 1) {
      addTurn(manager);
      const before = [...manager.activeMessages];
      if (await manager.maybeCompact()) replaced = before;
    }
    // Only the window guard changed anything; the stage that saved nothing ran on many more turns.
    expect(counts.compacted).toBeGreaterThan(0);
    expect(counts['compaction-skipped']).toBeGreaterThan(counts.compacted!);
    expect(counts['auto-snapshot-created']).toBe(counts.compacted);
    expect(snapshots.read('lazy', manager.listSnapshots()[0]!.id).context.messages).toEqual(replaced);
  });

  it('closes the circuit again when the model stage works on request', async () => {
    const registry = new ProviderRegistry();
    const model = { broken: true, calls: 0 };
    registry.register(switchableModelStage(model));
    const manager = new ContextManager({ contextSize: 3_000, registry, autoPipeline: 'switchable', modelProviders: ['switchable'], model: unusedModel });
    const counts = record(manager);
    for (let index = 0; index < 20; index += 1) {
      addTurn(manager);
      await manager.maybeCompact();
    }
    expect(counts['circuit-open']).toBe(1);
    expect(model.calls).toBe(3);
    model.broken = false;
    addTurn(manager);
    await manager.compact('switchable');
    for (let index = 0; index < 10; index += 1) {
      addTurn(manager);
      await manager.maybeCompact();
    }
    // Automatic compaction uses the model again.
    expect(model.calls).toBeGreaterThan(4);
    expect(counts['circuit-open']).toBe(1);
  });

  it('keeps the full record on disk whatever compaction does', async () => {
    const home = newHome();
    const registry = new ProviderRegistry();
    registry.register(shortenToolResults);
    const history = new SessionHistory({ home, sessionId: 'full' });
    const manager = new ContextManager({ contextSize: 3_000, registry, autoPipeline: 'shorten', history });
    const added: Message[] = [];
    manager.on('compacted', () => undefined);
    for (let index = 0; index < 15; index += 1) {
      const before = manager.activeMessages.length;
      addTurn(manager);
      added.push(...manager.activeMessages.slice(before));
      await manager.maybeCompact();
    }
    history.close();
    const stored = readSession(home, 'full');
    expect(stored.messages).toEqual(added);
    expect(stored.metadata.compactionCount).toBe(manager.compactionCount);
    expect(manager.compactionCount).toBeGreaterThan(0);
  });

  it('takes a snapshot before each compaction and restores exactly the saved context', async () => {
    const home = newHome();
    const registry = new ProviderRegistry();
    registry.register(shortenToolResults);
    const snapshots = new SnapshotStore({ home });
    const manager = new ContextManager({ contextSize: 50_000, registry, snapshots, sessionId: 'snap', systemPrompt: 'Be brief.' });
    const counts = record(manager);
    addTurn(manager);
    manager.addMessage({ role: 'assistant', parts: [{ type: 'text', text: '[GOAL] Finish the migration\n[DECISION] Keep the old API - LOCKED' }] });
    const saved = manager.createSnapshot('before trim');
    const stateBefore = manager.state();
    await manager.compact('shorten');
    expect(counts['auto-snapshot-created']).toBe(1);
    expect(manager.state()).not.toEqual(stateBefore);
    addTurn(manager);
    manager.setGoal('Something else');
    manager.restoreSnapshot(saved.id);
    expect(manager.state()).toEqual(stateBefore);
    // The model's lock is its proposal: only the user locks decisions.
    expect(manager.goals.state?.decisions).toEqual([{ description: 'Keep the old API', locked: false, by: 'model' }]);
    expect(counts['snapshot-restored']).toBe(1);
    expect(manager.listSnapshots()).toHaveLength(2);
  });

  it('renders the goal into the system message, which is never compacted', () => {
    const manager = new ContextManager({ contextSize: 8_000, registry: new ProviderRegistry(), systemPrompt: 'You are a coding agent.' });
    manager.addMessage({
      role: 'assistant',
      parts: [{ type: 'text', text: 'Plan:\n[GOAL] Fix the parser\n[CHECKPOINT] Reproduce - COMPLETED\n[NEXT] Write the fix' }],
    });
    const system = manager.messagesForModel()[0]!;
    expect(system.role).toBe('system');
    expect(system.pinned).toBe(true);
    const text = system.parts[0]!.type === 'text' ? system.parts[0]!.text : '';
    expect(text).toContain('You are a coding agent.');
    expect(text).toContain('ACTIVE GOAL: Fix the parser');
    expect(text).toContain('[x] Reproduce (completed)');
    expect(text).toContain('Next: Write the fix');
  });

  it('calibrates the budget with the prompt size the server reports', () => {
    const manager = new ContextManager({ contextSize: 8_000, registry: new ProviderRegistry() });
    addTurn(manager, 300);
    const estimated = manager.budget().conversationTokens;
    manager.recordReportedPromptTokens(Math.round(manager.tokens.countMessages(manager.messagesForModel()) * 1.5));
    expect(manager.calibrationRatio).toBeCloseTo(1.5, 1);
    expect(manager.budget().conversationTokens).toBeGreaterThan(estimated * 1.4);
  });

  it('scores reliability from the model size and the compactions', async () => {
    const registry = new ProviderRegistry();
    registry.register(shortenToolResults);
    const manager = new ContextManager({ contextSize: 50_000, registry, modelName: 'llama3.2:3b' });
    expect(manager.reliability()).toEqual({ score: 0.3, level: 'critical' });
    const large = new ContextManager({ contextSize: 50_000, registry, modelName: 'llama3.3:70b' });
    expect(large.reliability().level).toBe('high');
    addTurn(large);
    // A rule-based compaction keeps every piece recoverable: it costs no reliability.
    await large.compact('shorten');
    expect(large.compactionCount).toBe(1);
    expect(large.summaryCount).toBe(0);
    expect(large.reliability().level).toBe('high');
  });

  it('lowers reliability for each compaction a model summarised, and keeps the count through a state', async () => {
    const registry = new ProviderRegistry();
    registry.register(summarizingStage);
    const manager = new ContextManager({ contextSize: 50_000, registry, modelName: 'llama3.3:70b' });
    addTurn(manager);
    await manager.compact('summary-test');
    expect(manager.summaryCount).toBe(1);
    expect(manager.reliability().score).toBeCloseTo(0.95 * 0.85);
    expect(manager.reliability().level).toBe('medium');
    const restored = new ContextManager({ contextSize: 50_000, registry, modelName: 'llama3.3:70b' });
    restored.restoreState(manager.state());
    expect(restored.summaryCount).toBe(1);
    // A state saved before summaries were counted apart counts every compaction.
    const { systemPrompt, messages } = manager.state();
    restored.restoreState({ systemPrompt, messages, compactionCount: 3 });
    expect(restored.summaryCount).toBe(3);
  });

  it('keeps the context unchanged when a requested provider fails or is unknown', async () => {
    const registry = new ProviderRegistry();
    registry.register(failingStage('broken', { count: 0 }));
    const manager = new ContextManager({ contextSize: 8_000, registry });
    addTurn(manager);
    const before = [...manager.activeMessages];
    await expect(manager.compact('broken')).rejects.toThrowError(/Provider "broken" failed/);
    await expect(manager.compact('nope')).rejects.toThrowError(/No context provider named "nope"/);
    expect(manager.activeMessages).toEqual(before);
    expect(manager.compactionCount).toBe(0);
  });

  it('does not count a requested compaction that saved nothing', async () => {
    const registry = new ProviderRegistry();
    registry.register(shortenToolResults);
    const manager = new ContextManager({ contextSize: 50_000, registry });
    const counts = record(manager);
    manager.addMessage({ role: 'user', parts: [{ type: 'text', text: 'nothing to shorten here' }] });
    const before = [...manager.activeMessages];
    const outcome = await manager.compact('shorten');
    expect(outcome.result.stats.tokensAfter).toBe(outcome.result.stats.tokensBefore);
    expect(manager.compactionCount).toBe(0);
    expect(counts.compacted).toBeUndefined();
    expect(counts['compaction-skipped']).toBe(1);
    expect(manager.activeMessages).toEqual(before);
  });

  it('does not count a requested compaction that saved nothing even when the context is over the window', async () => {
    const registry = new ProviderRegistry();
    registry.register(shortenToolResults);
    const manager = new ContextManager({ contextSize: 1_024, registry });
    // A restored context over the window that nothing may cut: one user message waiting for its reply.
    manager.restoreState({
      systemPrompt: '',
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'word '.repeat(2_000) }] }],
      compactionCount: 0,
    });
    expect(manager.fitsWindow()).toBe(false);
    const counts = record(manager);
    await manager.compact('shorten');
    expect(manager.compactionCount).toBe(0);
    expect(counts.compacted).toBeUndefined();
    expect(manager.fitsWindow()).toBe(false);
  });

  it('cancels an automatic compaction in flight without counting it as a model failure', async () => {
    const registry = new ProviderRegistry();
    const waitsForCancel: ContextProviderV1 = {
      specificationVersion: 'v1',
      name: 'slow-model',
      description: 'waits until cancelled',
      shouldCompress: () => true,
      compress: (_messages, _config, context) =>
        new Promise((_resolve, reject) => context.abortSignal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true })),
    };
    registry.register(waitsForCancel);
    const manager = new ContextManager({ contextSize: 3_000, registry, autoPipeline: 'slow-model', modelProviders: ['slow-model'], model: unusedModel });
    const counts = record(manager);
    while (!manager.shouldCompact()) addTurn(manager);
    const controller = new AbortController();
    const running = manager.maybeCompact({ abortSignal: controller.signal });
    controller.abort();
    await running;
    expect(counts['compaction-error']).toBeUndefined();
    expect(counts['compaction-skipped']).toBe(1);
    expect(manager.tokens.countMessages(manager.messagesForModel())).toBeLessThanOrEqual(3_000);
  });
});
