import { describe, expect, it } from 'vitest';
import type { ConversationReport } from './compact-transcript.js';
import { formatCompactSummary } from './compact-summary.js';

function report(tokensBefore: number, tokensAfter: number, limit: number, saved: number): ConversationReport {
  const removed = Array.from({ length: saved }, (_, index) => ({
    messageId: `m${index}`,
    kind: 'tool-result',
    sha256: `${String(index).padStart(2, '0')}${'a'.repeat(62)}`,
    originalTokens: 10,
    path: `/x/${index}.txt`,
  }));
  return { conversation: 'c', tokensBefore, tokensAfter, limit, sourceDigest: 'd', coveredThrough: 0, removed, limitations: [], timeMs: 1 };
}

describe('the compact summary line', () => {
  it('reads like the brief: provider, before -> after, change, pieces saved', () => {
    expect(formatCompactSummary({ provider: 'trim', reports: [report(17837, 8912, 8918, 12)], savedUnder: '~/.ollm/removed' })).toBe(
      'trim: 17,837 -> 8,912 tokens (-50.0%), 12 pieces saved under ~/.ollm/removed\n' +
        'recover one: ollm recover 00aaaaaaaaaa (also 01aaaaaaaaaa, 02aaaaaaaaaa; --json lists all 12)',
    );
  });

  it('counts conversations, missed limits and the file written', () => {
    const line = formatCompactSummary({
      provider: 'mask,trim',
      reports: [report(1000, 400, 500, 1), report(1000, 700, 500, 2)],
      savedUnder: '/logs/removed',
      written: 'small.json',
    });
    expect(line).toBe(
      'mask,trim: 2 conversations, 2,000 -> 1,100 tokens (-45.0%), 3 pieces saved under /logs/removed; limit not reached in 1; wrote small.json\n' +
        'recover one: ollm recover 00aaaaaaaaaa (also 01aaaaaaaaaa)',
    );
  });
});
