import { describe, expect, it } from 'vitest';
import { describeCompaction, describeRemoved } from './describe-compaction.js';

describe('describeCompaction', () => {
  const event = {
    provider: 'trim',
    stages: ['trim'],
    trigger: 'manual' as const,
    stats: { tokensBefore: 12_000, tokensAfter: 6_100, timeMs: 3 },
    removed: [],
    limitations: [],
    compactionCount: 1,
  };

  it('prints tokens before and after, and says when it was automatic', () => {
    expect(describeCompaction(event)).toBe('compacted with trim: 12,000 -> 6,100 tokens');
    expect(describeCompaction({ ...event, provider: 'mask,goal-aware', trigger: 'automatic' })).toBe(
      'compacted with mask,goal-aware (automatic): 12,000 -> 6,100 tokens',
    );
  });

  it('sums what was removed by kind and says where it was saved', () => {
    const removed = [
      { messageId: 'm1', kind: 'tool-result', sha256: 'a', originalTokens: 1_500, path: '/h/removed/a.txt' },
      { messageId: 'm2', kind: 'tool-result', sha256: 'b', originalTokens: 900, path: '/h/removed/b.txt' },
      { messageId: 'm3', kind: 'message', sha256: 'c', originalTokens: 310 },
    ];
    expect(describeRemoved(removed, '/h/removed')).toBe(
      'removed: 2 tool-result (2,400 tokens), 1 message (310 tokens); saved under /h/removed (ollm recover <sha256>)',
    );
    expect(describeRemoved([], '/h/removed')).toMatch(/^removed: nothing/);
  });
});
