import { describe, expect, it } from 'vitest';
import { computeSourceDigest } from '../digest/source-digest.js';
import { createTokenizer } from '../tokens/bpe-tokenizer.js';
import { TokenCounter } from '../tokens/token-counter.js';
import { sampleConversation } from '../test-support/conversation.js';
import { buildCompactionResult } from './build-compaction-result.js';

describe('buildCompactionResult', () => {
  const tokens = new TokenCounter(createTokenizer('o200k_base'));
  const input = sampleConversation();
  const output = input.filter((message) => message.id !== '3' && message.id !== '4');

  it('fills digest, coveredThrough, token stats and empty lists', () => {
    const result = buildCompactionResult({ input, output, tokens, startedAt: performance.now() });
    expect(result.sourceDigest).toBe(computeSourceDigest(input));
    expect(result.coveredThrough).toBe(input.length - 1);
    expect(result.stats.tokensBefore).toBe(tokens.countMessages(input));
    expect(result.stats.tokensAfter).toBe(tokens.countMessages(output));
    expect(result.stats.timeMs).toBeGreaterThanOrEqual(0);
    expect(result).toMatchObject({ removed: [], limitations: [], messages: output });
    expect('folded' in result).toBe(false);
  });

  it('passes through removed, limitations, folded, coveredThrough and model stats', () => {
    const removed = [{ messageId: '4', kind: 'message', sha256: 'f'.repeat(64), originalTokens: 12 }];
    const result = buildCompactionResult({
      input,
      output,
      tokens,
      startedAt: performance.now(),
      removed,
      limitations: ['dropped one tool call'],
      folded: [{ messageId: '2', reason: 'quoted' }],
      coveredThrough: 5,
      modelStats: { modelCalls: 1, modelInputTokens: 900, modelOutputTokens: 120 },
    });
    expect(result.removed).toBe(removed);
    expect(result.limitations).toEqual(['dropped one tool call']);
    expect(result.folded).toEqual([{ messageId: '2', reason: 'quoted' }]);
    expect(result.coveredThrough).toBe(5);
    expect(result.stats).toMatchObject({ modelCalls: 1, modelInputTokens: 900, modelOutputTokens: 120 });
  });
});
