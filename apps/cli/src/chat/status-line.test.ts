import { describe, expect, it } from 'vitest';
import { computeBudget, computeReliability } from '@ollm/runtime';
import picocolors from 'picocolors';
import { colorForLevel, formatStatusLine } from './status-line.js';

describe('formatStatusLine', () => {
  it('shows tokens over what a request may hold (the window less the reply reserve), reliability, compactions and the provider', () => {
    const budget = computeBudget({
      contextSize: 16_000,
      replyReserve: 2_400,
      systemTokens: 234,
      checkpointTokens: 1_000,
      conversationTokens: 4_000,
      threshold: 0.8,
    });
    const reliability = computeReliability({ modelSizeBillions: 70, compactionCount: 2 });
    expect(formatStatusLine({ budget, reliability, compactions: 2, provider: 'goal-aware' })).toBe(
      'Context: 5,234/13,600 (38%) · reliability medium · 2 compactions · provider goal-aware',
    );
    expect(formatStatusLine({ budget, reliability, compactions: 1, provider: 'trim' })).toContain('· 1 compaction ·');
  });

  it('colours by level only when colour is on', () => {
    const colors = picocolors.createColors(true);
    expect(colorForLevel(colors, 'high')('x')).toBe(colors.green('x'));
    expect(colorForLevel(colors, 'critical')('x')).toContain('\x1b[31m');
    expect(colorForLevel(colors, 'unknown')('x')).toBe(colors.dim('x'));
    expect(colorForLevel(picocolors.createColors(false), 'low')('x')).toBe('x');
  });
});
