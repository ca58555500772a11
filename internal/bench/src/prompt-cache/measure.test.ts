import { describe, expect, it } from 'vitest';
import { measurePromptCache } from './measure.js';
import { taskFile } from './agent-task.js';
import { TokenCounter, createTokenizer } from '@ollm/core';

describe('measurePromptCache', () => {
  it("runs the agent loop three ways: the server's cut loses the marker, the agent's compaction and ollm serve keep it inside the window", async () => {
    const report = await measurePromptCache({ steps: 14, windows: [8_192] });
    expect(report.rows.map((row) => row.strategy)).toEqual(['no compaction (server truncates)', "the agent's own compaction", 'ollm serve']);
    const [truncating, agent, ollm] = report.rows;
    expect(truncating!.markerKept).toBe(false);
    expect(truncating!.rewrites).toBeGreaterThan(0);
    expect(agent!.summaryRequests).toBeGreaterThan(0);
    expect(agent!.requests).toBe(14 + agent!.summaryRequests);
    expect(agent!.markerKept).toBe(true);
    expect(ollm!.requests).toBe(14);
    expect(ollm!.markerKept).toBe(true);
    expect(ollm!.rewrites).toBeGreaterThan(0);
    for (const row of report.rows) {
      expect(row.overWindow).toBe(0);
      expect(row.sharedMean).toBeGreaterThan(0);
      expect(row.sharedMean).toBeLessThan(1);
      expect(row.processedAgain).toBeGreaterThan(0);
    }
  }, 60_000);

  it('makes each step a file of about 2,400 tokens', () => {
    const count = new TokenCounter(createTokenizer('o200k_base')).countText(taskFile(1, 7));
    expect(count).toBeGreaterThan(2_000);
    expect(count).toBeLessThan(2_800);
  });
});
