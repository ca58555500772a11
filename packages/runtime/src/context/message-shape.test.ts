import {
  buildCompactionResult,
  checkMessageShape,
  type ContextProviderV1,
  createMessageId,
  InvalidArgumentError,
  InvalidProviderOutputError,
  type LanguageModel,
  type MessageShapeRuleSet,
  turnOf,
} from '@ollm/core';
import { describe, expect, it } from 'vitest';
import type { ContextEventName, ContextEvents } from '../events/context-events.js';
import { ProviderRegistry } from '../registry/provider-registry.js';
import { ContextManager } from './context-manager.js';
import { shortenToolResults } from './test-support/test-stages.js';

const words = (count: number, seed: string) => Array.from({ length: count }, (_, index) => `${seed}${index % 50}`).join(' ');

/** A rule stage that drops every plain assistant reply: fine for `openai`, two user turns touch for `strict`. */
const dropReplies: ContextProviderV1 = {
  specificationVersion: 'v1',
  name: 'drop-replies',
  description: 'test stage',
  shouldCompress: () => true,
  async compress(messages, config, context) {
    const startedAt = performance.now();
    const output = messages.filter((message) => message.role !== 'assistant' || message.pinned || message.parts.some((part) => part.type === 'tool-call'));
    return buildCompactionResult({ input: messages, output, tokens: context.tokens, startedAt });
  },
};

/**
 * A model stage shaped like summarize's restart: system messages, the task, a RESUME (new id),
 * the latest user message; the other user messages declared folded. `resumeFirst` puts the
 * RESUME before the task, as summarize did before the message-shape contract (`user-first`).
 */
function restartStage(name: string, resumeFirst = false): ContextProviderV1 {
  return {
    specificationVersion: 'v1',
    name,
    description: 'test model stage',
    shouldCompress: () => true,
    async compress(messages, config, context) {
      const startedAt = performance.now();
      const users = messages.filter((message) => turnOf(message) === 'user');
      const task = users[0]!;
      const latest = users.at(-1)!;
      const resume = {
        id: createMessageId('resume'),
        role: 'assistant' as const,
        parts: [{ type: 'text' as const, text: '[ollm resume]\n## Summary\nsteps done' }],
      };
      const kept = [...messages.filter((message) => message.role === 'system'), ...(resumeFirst ? [resume, task] : [task, resume]), latest];
      const output = latest === task ? kept.slice(0, -1) : kept;
      return buildCompactionResult({
        input: messages,
        output,
        tokens: context.tokens,
        startedAt,
        folded: users.filter((message) => message !== task && message !== latest).map((message) => ({ messageId: message.id, reason: 'restart' })),
        modelStats: { modelCalls: 1, modelInputTokens: 100, modelOutputTokens: 20 },
      });
    },
  };
}

const model: LanguageModel = {
  specificationVersion: 'v1',
  provider: 'test',
  modelId: 'test:8b',
  complete: async () => {
    throw new Error('the test stages call no model');
  },
};

function managerWith(options: { stages: readonly ContextProviderV1[]; shape?: MessageShapeRuleSet; contextSize?: number; modelStages?: readonly string[] }) {
  const registry = new ProviderRegistry();
  for (const stage of options.stages) registry.register(stage);
  const manager = new ContextManager({
    contextSize: options.contextSize ?? 4_096,
    systemPrompt: 'You are careful.',
    registry,
    autoPipeline: options.stages.map((stage) => stage.name).join(','),
    model,
    modelProviders: options.modelStages ?? [],
    ...(options.shape ? { shape: options.shape } : {}),
  });
  const events: { [Name in ContextEventName]?: ContextEvents[Name][] } = {};
  const names: ContextEventName[] = ['compacted', 'compaction-error', 'rollover-complete'];
  for (const name of names) manager.on(name, (event) => ((events[name] ??= []) as unknown[]).push(event));
  return { manager, events };
}

/** User questions answered in prose, over the trigger of a 4,096-token window but inside it. */
function chat(manager: ContextManager, turns = 7, replyWords = 100): void {
  for (let index = 0; index < turns; index += 1) {
    manager.addMessage({ role: 'user', parts: [{ type: 'text', text: `question ${index}` }] });
    manager.addMessage({ role: 'assistant', parts: [{ type: 'text', text: words(replyWords, `a${index}-`) }] });
  }
  manager.addMessage({ role: 'user', parts: [{ type: 'text', text: 'and now?' }] });
}

describe('ContextManager shape', () => {
  it('refuses a shape that is no message-shape rule set, naming the option', () => {
    let error: unknown;
    try {
      new ContextManager({ contextSize: 4_096, shape: 'anthropic' as MessageShapeRuleSet });
    } catch (caught) {
      error = caught;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ argument: 'shape', message: expect.stringMatching(/shape option .*"openai" or "strict"; got "anthropic"/) });
    expect(() => new ContextManager({ contextSize: 4_096, shape: 'strict' })).not.toThrow();
  });

  it('rejects a rule stage that breaks the strict shape more than its input, like any integrity break; openai (default) keeps it', async () => {
    const strict = managerWith({ stages: [dropReplies], shape: 'strict' });
    chat(strict.manager);
    const before = [...strict.manager.activeMessages];
    expect(strict.manager.shouldCompact()).toBe(true);
    expect(strict.manager.fitsWindow()).toBe(true);
    await strict.manager.maybeCompact();
    expect(strict.events['compaction-error']?.[0]).toMatchObject({
      provider: 'drop-replies',
      error: expect.objectContaining({ message: expect.stringMatching(/message-shape/) }),
    });
    expect(strict.manager.activeMessages).toEqual(before);
    await expect(strict.manager.compact('drop-replies')).rejects.toSatisfy((error) => InvalidProviderOutputError.isInstance(error));

    const openai = managerWith({ stages: [dropReplies] });
    chat(openai.manager);
    await openai.manager.maybeCompact();
    expect(openai.events['compaction-error']).toBeUndefined();
    expect(openai.events['compacted']?.[0]).toMatchObject({ provider: 'drop-replies' });
  });

  it('rejects a model stage that breaks the strict shape (a failure for the circuit breaker) and keeps one that does not', async () => {
    const { manager, events } = managerWith({
      stages: [restartStage('resume-first', true), restartStage('restart')],
      shape: 'strict',
      modelStages: ['resume-first', 'restart'],
    });
    chat(manager);
    await manager.maybeCompact();
    expect(events['compaction-error']?.[0]).toMatchObject({ provider: 'resume-first', consecutiveFailures: 1 });
    expect(events['compacted']?.[0]).toMatchObject({ provider: 'restart' });
    expect(checkMessageShape(manager.messagesForModel(), 'strict')).toEqual([]);
  });

  it('keeps every request strict when the window guard has to drop replies between user messages', async () => {
    const { manager, events } = managerWith({ stages: [], shape: 'strict', contextSize: 2_048 });
    for (let index = 0; index < 8; index += 1) {
      manager.addMessage({ role: 'user', parts: [{ type: 'text', text: `question ${index}: ${words(40, `q${index}-`)}` }] });
      const request = await manager.prepareRequest();
      expect(checkMessageShape(request.messages, 'strict')).toEqual([]);
      expect(request.tokens).toBeLessThanOrEqual(request.requestLimit);
      manager.addMessage({ role: 'assistant', parts: [{ type: 'text', text: words(200, `a${index}-`) }] });
    }
    expect(events['compacted']?.some((event) => event.stages.includes('window-guard'))).toBe(true);
    expect(manager.activeMessages.some((message) => message.parts.some((part) => part.type === 'text' && part.text.startsWith('[ollm window-guard]')))).toBe(
      true,
    );
    expect(events['compaction-error']).toBeUndefined();
  });
});

describe('rollover-complete', () => {
  it('fires when a restart keeps the task and the latest request but none of the replies', async () => {
    const { manager, events } = managerWith({ stages: [restartStage('restart')], modelStages: ['restart'] });
    chat(manager);
    const task = manager.activeMessages[0]!;
    await manager.compact('restart');
    // The user messages are kept: before the change, that alone meant "no rollover".
    expect(manager.activeMessages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(manager.activeMessages[0]!.id).toBe(task.id);
    expect(events['rollover-complete']).toEqual([{ provider: 'restart', tokensBefore: expect.any(Number), tokensAfter: expect.any(Number) }]);
  });

  it('does not fire while a reply or a tool message of the input survives', async () => {
    const { manager, events } = managerWith({ stages: [shortenToolResults] });
    manager.addMessage({ role: 'user', parts: [{ type: 'text', text: 'run it' }] });
    manager.addMessage({ role: 'assistant', parts: [{ type: 'tool-call', callId: 'c1', name: 'bash', input: {} }] });
    manager.addMessage({ role: 'tool', parts: [{ type: 'tool-result', callId: 'c1', output: words(400, 'out') }] });
    await manager.compact('shorten');
    expect(events['compacted']).toHaveLength(1);
    expect(events['rollover-complete']).toBeUndefined();
  });
});
