import { describe, expect, it } from 'vitest';
import {
  COMPACTION_GUIDANCE,
  checkReliabilityWarning,
  compactionGuidance,
  computeReliability,
  guidanceMarks,
  parseModelSize,
  reliabilityLevel,
  reliabilityWarning,
  type ReliabilityWarningReason,
  type ReliabilityWatch,
} from './reliability.js';

describe('reliability', () => {
  it('follows the documented formula', () => {
    expect(computeReliability({ modelSizeBillions: 70, compactionCount: 0 }).score).toBeCloseTo(0.95);
    expect(computeReliability({ modelSizeBillions: 32, compactionCount: 1 }).score).toBeCloseTo(0.85 * 0.85);
    expect(computeReliability({ modelSizeBillions: 13, compactionCount: 2 }).score).toBeCloseTo(0.7 * 0.7);
    expect(computeReliability({ modelSizeBillions: 8, compactionCount: 10 }).score).toBeCloseTo(0.5 * 0.3);
    expect(computeReliability({ modelSizeBillions: 3, compactionCount: 0, contextConfidence: 0.5 }).score).toBeCloseTo(0.15);
  });

  it('says unknown, not critical, when the model size is unknown, whatever the compactions', () => {
    expect(computeReliability({ modelSizeBillions: undefined, compactionCount: 0 })).toEqual({ score: 0.5, level: 'unknown' });
    expect(computeReliability({ modelSizeBillions: undefined, compactionCount: 6 }).level).toBe('unknown');
    expect(computeReliability({ modelSizeBillions: 3, compactionCount: 0 }).level).toBe('critical');
  });

  it('maps scores to the documented levels', () => {
    expect(reliabilityLevel(0.85)).toBe('high');
    expect(reliabilityLevel(0.84)).toBe('medium');
    expect(reliabilityLevel(0.6)).toBe('medium');
    expect(reliabilityLevel(0.59)).toBe('low');
    expect(reliabilityLevel(0.4)).toBe('low');
    expect(reliabilityLevel(0.39)).toBe('critical');
  });

  it('reads model sizes from names and parameter sizes', () => {
    expect(parseModelSize('llama3.2:3b')).toBe(3);
    expect(parseModelSize('qwen2.5-coder:32b-instruct-q4_K_M')).toBe(32);
    expect(parseModelSize('mixtral:8x7b')).toBe(56);
    expect(parseModelSize('8.0B')).toBe(8);
    expect(parseModelSize('deepseek-r1:1.5b')).toBe(1.5);
    expect(parseModelSize('567M')).toBeCloseTo(0.567);
    expect(parseModelSize('llama3.2')).toBeUndefined();
    expect(parseModelSize('gpt-4o')).toBeUndefined();
  });

  it('words the warning as documented', () => {
    const warning = reliabilityWarning('llama3.2:3b', 3);
    expect(warning).toContain('Your model (llama3.2:3b) has compressed the conversation 3 times.');
    expect(warning).toContain('- Start new conversation if seeing hallucinations');
    // Without guidance (no size given), the wording is the general one, as before.
    expect(reliabilityWarning('my-model', 0, 'critical').split('\n').slice(1, 3)).toEqual([
      'Your model (my-model) starts at reliability critical, before any compaction.',
      'Small models may lose context accuracy after multiple compactions.',
    ]);
    expect(reliabilityWarning('my-model', 1)).toContain('has compressed the conversation 1 time.');
  });
});

describe('compaction guidance by model size', () => {
  it('gives small models 2-3 compactions, medium 3-5, large 5-7, and none for an unknown size', () => {
    expect(compactionGuidance(3)).toEqual({ sizeClass: 'small', sizes: 'under 7B', keepsWell: [2, 3] });
    expect(compactionGuidance(6.9)?.sizeClass).toBe('small');
    expect(compactionGuidance(0.567)?.sizeClass).toBe('small');
    expect(compactionGuidance(7)).toEqual({ sizeClass: 'medium', sizes: '7B-30B', keepsWell: [3, 5] });
    expect(compactionGuidance(29.9)?.sizeClass).toBe('medium');
    expect(compactionGuidance(30)).toEqual({ sizeClass: 'large', sizes: '30B and up', keepsWell: [5, 7] });
    expect(compactionGuidance(405)?.sizeClass).toBe('large');
    expect(compactionGuidance(undefined)).toBeUndefined();
    expect(compactionGuidance(parseModelSize('gpt-4o'))).toBeUndefined();
  });

  it('marks the first count past the lower bound, the first past the upper bound, then every upper bound more', () => {
    expect(guidanceMarks(COMPACTION_GUIDANCE.small, 12)).toEqual([3, 4, 7, 10]);
    expect(guidanceMarks(COMPACTION_GUIDANCE.medium, 16)).toEqual([4, 6, 11, 16]);
    expect(guidanceMarks(COMPACTION_GUIDANCE.large, 22)).toEqual([6, 8, 15, 22]);
    expect(guidanceMarks(COMPACTION_GUIDANCE.small, 2)).toEqual([]);
  });

  it('words the warning with the guidance', () => {
    const small = compactionGuidance(3);
    expect(reliabilityWarning('llama3.2:3b', 3, 'critical', small)).toBe(
      [
        '⚠️ Context Compression Warning',
        'Your model (llama3.2:3b) has compacted 3 times; small models (under 7B) keep 2-3 compactions well.',
        'Reliability is critical: past 3 compactions, small models may lose context accuracy.',
        '',
        'Recommendations:',
        '- Continue if making good progress',
        '- Start new conversation if seeing hallucinations',
        '- Use larger model for complex long-term tasks',
      ].join('\n'),
    );
    expect(reliabilityWarning('llama3.2:3b', 1, 'critical', small)).toContain('Your model (llama3.2:3b) has compacted 1 time; small models');
    expect(reliabilityWarning('llama3.1:8b', 0, 'low', compactionGuidance(8)).split('\n').slice(1, 3)).toEqual([
      'Your model (llama3.1:8b) starts at reliability low, before any compaction.',
      'Medium models (7B-30B) keep 3-5 compactions well; past 5, context accuracy may drop.',
    ]);
  });
});

describe('when the reliability warning shows', () => {
  /** The warnings a session shows, one check per summary count in `counts` (the first is the start). */
  function warnings(size: number | undefined, counts: readonly number[]): { count: number; warn: ReliabilityWarningReason }[] {
    let watch: ReliabilityWatch | undefined;
    const shown: { count: number; warn: ReliabilityWarningReason }[] = [];
    for (const count of counts) {
      const { level } = computeReliability({ modelSizeBillions: size, compactionCount: count });
      const check = checkReliabilityWarning(watch, { level, summaryCount: count, guidance: compactionGuidance(size) });
      watch = check.watch;
      if (check.warn) shown.push({ count, warn: check.warn });
    }
    return shown;
  }
  const upTo = (last: number) => Array.from({ length: last + 1 }, (_, index) => index);

  it('warns a 3B model at the start, then at the guidance marks, though its level stays critical', () => {
    expect(warnings(3, upTo(10))).toEqual([
      { count: 0, warn: 'start' },
      { count: 3, warn: 'guidance' },
      { count: 4, warn: 'guidance' },
      { count: 7, warn: 'guidance' },
      { count: 10, warn: 'guidance' },
    ]);
  });

  it('never warns twice for one count, however many checks (every turn checks)', () => {
    expect(warnings(3, [0, 0, 0, 1, 1, 2, 3, 3, 3, 3, 4, 4])).toEqual([
      { count: 0, warn: 'start' },
      { count: 3, warn: 'guidance' },
      { count: 4, warn: 'guidance' },
    ]);
  });

  it('warns an 8B model at the start (low), when it drops to critical, and at the medium marks', () => {
    expect(warnings(8, upTo(11))).toEqual([
      { count: 0, warn: 'start' },
      { count: 2, warn: 'drop' },
      { count: 4, warn: 'guidance' },
      { count: 6, warn: 'guidance' },
      { count: 11, warn: 'guidance' },
    ]);
  });

  it('warns a 70B model on its drops and at the large marks, not at the start (high)', () => {
    expect(warnings(70, upTo(15))).toEqual([
      { count: 3, warn: 'drop' },
      { count: 4, warn: 'drop' },
      { count: 6, warn: 'guidance' },
      { count: 8, warn: 'guidance' },
      { count: 15, warn: 'guidance' },
    ]);
  });

  it('warns a resumed session already past a mark once at the start, and only at the next mark after', () => {
    expect(warnings(3, [5, 5, 6, 7])).toEqual([
      { count: 5, warn: 'start' },
      { count: 7, warn: 'guidance' },
    ]);
  });

  it('warns again for a mark passed again after a restore brought the count back', () => {
    expect(warnings(3, [0, 1, 2, 3, 1, 2, 3])).toEqual([
      { count: 0, warn: 'start' },
      { count: 3, warn: 'guidance' },
      { count: 3, warn: 'guidance' },
    ]);
  });

  it('warns on level drops only without guidance, and never for an unknown level', () => {
    let watch: ReliabilityWatch | undefined;
    const shown: (ReliabilityWarningReason | undefined)[] = [];
    for (const [level, count] of [
      ['medium', 0],
      ['low', 1],
      ['low', 4],
      ['critical', 5],
      ['critical', 9],
    ] as const) {
      const check = checkReliabilityWarning(watch, { level, summaryCount: count });
      watch = check.watch;
      shown.push(check.warn);
    }
    expect(shown).toEqual([undefined, 'drop', undefined, 'drop', undefined]);
    expect(warnings(undefined, upTo(10))).toEqual([]);
  });
});
