import { describe, expect, it } from 'vitest';
import { createTokenizer, sha256Hex, TokenCounter, type ContextProviderV2, type Logger, type Message } from '@ollm/core';
import { createWindowGuardProvider } from '../context/window-guard-provider.js';
import { compactSpan, MAX_SPAN_REFERENCES, spanTarget } from './compact-span.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));
const guard = createWindowGuardProvider({ shape: 'openai' });

/** A rule stage that replaces the tool results but the last `keep` by their sha256; it records the limit it was given. */
function placeholders(keep: number, limits: number[] = []): ContextProviderV2 {
  return {
    specificationVersion: 'v2',
    name: `placeholders-${keep}`,
    description: 'test stage',
    async compress({ messages, limit }) {
      limits.push(limit!);
      const tools = messages.flatMap((message, index) => (message.role === 'tool' ? [index] : []));
      const kept = new Set(tools.slice(-keep));
      const removed: { messageId: string; kind: string; sha256: string; originalTokens: number }[] = [];
      const output = messages.map((message, index) => {
        if (message.role !== 'tool' || kept.has(index)) return message;
        return {
          ...message,
          parts: message.parts.map((part) => {
            if (part.type !== 'tool-result' || part.output.startsWith('[removed')) return part;
            const sha256 = sha256Hex(part.output);
            removed.push({ messageId: message.id, kind: 'tool-result', sha256, originalTokens: 0 });
            return { ...part, output: `[removed ${sha256.slice(0, 12)}]` };
          }),
        };
      });
      return { messages: output, removed };
    },
  };
}

const failing: ContextProviderV2 = {
  specificationVersion: 'v2',
  name: 'failing',
  description: 'test stage',
  async compress() {
    throw new Error('broken on purpose');
  },
};

const modelStage: ContextProviderV2 = { ...placeholders(0), name: 'needs-model', usesModel: true };

function conversation(turns: number): Message[] {
  const messages: Message[] = [{ id: 'm0', role: 'system', parts: [{ type: 'text', text: 'You are an agent.' }] }];
  for (let turn = 0; turn < turns; turn += 1) {
    const at = messages.length;
    messages.push({ id: `m${at}`, role: 'user', parts: [{ type: 'text', text: `step ${turn}` }] });
    messages.push({ id: `m${at + 1}`, role: 'assistant', parts: [{ type: 'tool-call', callId: `c${turn}`, name: 'read', input: { turn } }] });
    const output = Array.from({ length: 40 }, (_, line) => `line ${line} of file ${turn}: value ${line * turn}`).join('\n');
    messages.push({ id: `m${at + 2}`, role: 'tool', parts: [{ type: 'tool-result', callId: `c${turn}`, name: 'read', output }] });
  }
  return messages;
}

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, debug() {}, info() {}, warn: (message: string) => void warnings.push(message) };
}

describe('compactSpan', () => {
  it('aims every stage at a share of the budget and adds what it removed to the references it continues', async () => {
    const messages = conversation(8);
    const budget = Math.floor(tokens.countMessages(messages) / 2);
    const limits: number[] = [];
    const done = await compactSpan({
      messages,
      stages: [placeholders(2, limits)],
      guard,
      budget,
      targetShare: 0.7,
      tokens,
      shape: 'openai',
      logger: recordingLogger(),
      previous: { stages: ['earlier'], references: ['a'.repeat(64)] },
    });
    expect(limits).toEqual([spanTarget(budget, 0.7)]);
    expect(done.tokensAfter).toBe(tokens.countMessages(done.messages));
    expect(done.tokensAfter).toBeLessThanOrEqual(spanTarget(budget, 0.7));
    expect(done.stages).toEqual(['earlier', 'placeholders-2']);
    expect(done.removed).toHaveLength(6);
    expect(done.references).toEqual(['a'.repeat(64), ...done.removed]);
  });

  it('runs the guard when the stages leave the messages over the target, and skips a failing stage with a warning', async () => {
    const messages = conversation(8);
    const budget = Math.floor(tokens.countMessages(messages) / 4);
    const logger = recordingLogger();
    const done = await compactSpan({ messages, stages: [failing], guard, budget, tokens, shape: 'openai', logger, warningPrefix: 'test: ' });
    expect(logger.warnings).toEqual([expect.stringMatching(/^test: failing failed \(.*broken on purpose.*\); going on without it$/)]);
    expect(done.stages).toEqual([guard.name]);
    expect(done.tokensAfter).toBeLessThanOrEqual(spanTarget(budget, 0.7));
  });

  it('skips model stages without a model, and throws instead of skipping once the call is aborted', async () => {
    const messages = conversation(8);
    const budget = Math.floor(tokens.countMessages(messages) / 2);
    const done = await compactSpan({ messages, stages: [modelStage, placeholders(2)], guard, budget, tokens, shape: 'openai', logger: recordingLogger() });
    expect(done.stages).toEqual(['placeholders-2']);

    const controller = new AbortController();
    const abortedInside: ContextProviderV2 = {
      ...failing,
      async compress() {
        controller.abort();
        throw new Error('aborted inside');
      },
    };
    const logger = recordingLogger();
    await expect(
      compactSpan({ messages, stages: [abortedInside], guard, budget, tokens, shape: 'openai', logger, abortSignal: controller.signal }),
    ).rejects.toThrow('aborted inside');
    expect(logger.warnings).toEqual([]);
  });

  it('keeps the newest references, each once', async () => {
    const messages = conversation(8);
    const budget = Math.floor(tokens.countMessages(messages) / 2);
    const earlier = Array.from({ length: MAX_SPAN_REFERENCES }, (_, index) => index.toString(16).padStart(64, '0'));
    const done = await compactSpan({
      messages,
      stages: [placeholders(2)],
      guard,
      budget,
      tokens,
      shape: 'openai',
      logger: recordingLogger(),
      previous: { stages: [], references: [...earlier, earlier[0]!] },
    });
    expect(done.references).toHaveLength(MAX_SPAN_REFERENCES);
    expect(new Set(done.references).size).toBe(MAX_SPAN_REFERENCES);
    expect(done.references.slice(-done.removed.length)).toEqual(done.removed);
    expect(done.references[0]).toBe(earlier[done.removed.length]);
  });
});
