import { describe, expect, it } from 'vitest';
import { createTokenizer, TokenCounter, type ContextProviderV2, type Logger } from '@ollm/core';
import { createWindowGuardProvider } from '../context/window-guard-provider.js';
import { compactSpan, MAX_SPAN_REFERENCES, spanTarget } from './compact-span.js';
import { placeholderStage, readingConversation } from './test-support/placeholder-steps.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));
const guard = createWindowGuardProvider({ shape: 'openai' });

/** Replaces the tool results but the last `keep` by their sha256; records the limit it was given. */
function placeholders(keep: number, limits: number[] = []): ContextProviderV2 {
  return placeholderStage({ name: `placeholders-${keep}`, keep, onCall: ({ limit }) => void limits.push(limit!) });
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

const conversation = readingConversation;

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
