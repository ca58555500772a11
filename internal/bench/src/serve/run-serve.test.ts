import { describe, expect, it } from 'vitest';
import { serveSection } from './render-serve.js';
import { LONG_CLIENTS, SHORT_CLIENTS, runServeWorkloads } from './run-serve.js';
import type { ServeMode } from './serve-mode.js';
import { SERVE_REPLY_LIMIT, SERVE_WINDOW } from './serve-rig.js';

// Small enough for a test, long enough that the proxy compacts (from about turn 12) and reuses.
const TINY: ServeMode = {
  shortConversations: 1,
  shortTurns: 3,
  longConversations: 1,
  longTurns: 24,
  warmUpTurns: 2,
  concurrency: 3,
  throughputTurns: 3,
  throughputRounds: 1,
  throughputWarmUpTurns: 1,
};

describe('the serve section on a tiny mode', () => {
  // Nothing here measures time: only what was sent where, and what the proxy did.
  it('sends every request both ways, splits the long conversations by what the proxy did, and renders the block', { timeout: 120_000 }, async () => {
    const report = await runServeWorkloads(TINY, () => {});
    expect(report.window).toBe(SERVE_WINDOW);

    expect(report.short.map((entry) => entry.client)).toEqual(SHORT_CLIENTS);
    for (const entry of report.short) {
      expect(entry.all.requests).toBe(3);
      expect(entry.byAction.map((split) => split.action)).toEqual(['fits']);
      expect(entry.upstream).toMatchObject({ directChats: 3, proxiedChats: 3, proxiedOverWindow: 0 });
      // The same messages both ways: a request that fits reaches the server as it came.
      expect(entry.upstream.largestProxiedPrompt).toBe(entry.upstream.largestDirectPrompt);
    }

    expect(report.long.map((entry) => entry.client)).toEqual(LONG_CLIENTS);
    for (const entry of report.long) {
      expect(entry.all.requests).toBe(24);
      expect(entry.byAction.map((split) => split.action)).toEqual(['fits', 'reused', 'compacted']);
      expect(entry.byAction.reduce((sum, split) => sum + split.statistics.requests, 0)).toBe(24);
      expect(entry.upstream).toMatchObject({ directChats: 24, proxiedChats: 24, proxiedOverWindow: 0 });
      // Direct carries the whole history; through the proxy it fits the window with the reply limit.
      expect(entry.upstream.largestDirectPrompt).toBeGreaterThan(SERVE_WINDOW);
      expect(entry.upstream.largestProxiedPrompt + SERVE_REPLY_LIMIT).toBeLessThanOrEqual(SERVE_WINDOW);
    }

    expect(report.throughput.cases.map((entry) => entry.target)).toEqual(['direct', 'memory', 'files']);
    for (const entry of report.throughput.cases) {
      expect(entry.roundRequestsPerSecond).toHaveLength(1);
      expect(entry.requestsPerSecond).toBeGreaterThan(0);
      const proxied = entry.target !== 'direct';
      expect(entry.upstream).toMatchObject({ directChats: proxied ? 0 : 9, proxiedChats: proxied ? 9 : 0, proxiedOverWindow: 0 });
      expect(entry.actions).toEqual(proxied ? { fits: 9 } : {});
    }

    const section = serveSection(8, report).join('\n');
    expect(section).toMatch(/^## 8\. ollm serve: added latency and throughput\n\n<!-- recorded: serve -->\n[\s\S]*\n<!-- \/recorded -->\n$/);
    expect(section).toContain('| 3 turns | ollama, streamed | fits (sent as it came) | 3 |');
    expect(section).toContain('| growing to 24 turns | openai | compacted now |');
    expect(section).toMatch(/\| ollm serve, file store \| \*\*[\d,.]+\*\* \| [\d.]+x \|/);
    expect(serveSection(8, { skipped: 'not part of quick mode' }).join('\n')).toContain('Skipped: not part of quick mode');
  });
});
