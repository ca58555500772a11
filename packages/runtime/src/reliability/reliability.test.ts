import { describe, expect, it } from 'vitest';
import { computeReliability, parseModelSize, reliabilityLevel, reliabilityWarning } from './reliability.js';

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
  });
});
