import { describe, expect, it } from 'vitest';
import { reportedCutPrompt } from './silent-truncation.js';

describe('reportedCutPrompt', () => {
  it('takes a prompt size near the window, over the estimate, for a cut one', () => {
    expect(reportedCutPrompt({ reported: 4096, sent: 3600, estimate: 3600, window: 4096 })).toBe(true);
    expect(reportedCutPrompt({ reported: 3800, sent: 3000, estimate: 3300, window: 4096 })).toBe(true);
  });

  it('takes a count near the window that the estimate foresaw for a count', () => {
    expect(reportedCutPrompt({ reported: 4000, sent: 4050, estimate: 4050, window: 4096 })).toBe(false);
    expect(reportedCutPrompt({ reported: 3900, sent: 3000, estimate: 3870, window: 4096 })).toBe(false);
  });

  it('takes a count far under an estimate over the window for a cut one', () => {
    expect(reportedCutPrompt({ reported: 3000, sent: 3500, estimate: 4600, window: 4096 })).toBe(true);
    expect(reportedCutPrompt({ reported: 4300, sent: 3500, estimate: 4600, window: 8192 })).toBe(false);
  });

  it('leaves prompts under the window alone', () => {
    expect(reportedCutPrompt({ reported: 3100, sent: 2400, estimate: 2400, window: 4096 })).toBe(false);
    expect(reportedCutPrompt({ reported: 1000, sent: 1000, estimate: 1000, window: 4096 })).toBe(false);
  });
});
