import { describe, expect, it } from 'vitest';
import type { MiddlewareMode } from './middleware-mode.js';
import { MIDDLEWARE_REPLY_LIMIT, MIDDLEWARE_WINDOW } from './middleware-rig.js';
import { middlewareSection } from './render-middleware.js';
import { runMiddlewareWorkloads } from './run-middleware.js';

// Small enough for a test; the long loop passes the window (from about step 13), so the plain
// model is refused and the middleware compacts and reuses.
const TINY: MiddlewareMode = { shortSteps: 3, shortRuns: 1, longSteps: 20, longRuns: 1, warmUpSteps: 2 };

describe('the middleware section on a tiny mode', () => {
  // Nothing here measures time: which steps ran, what the middleware did, what reached the server.
  it(
    'runs both frameworks plain and wrapped, refuses the plain long loop, splits the wrapped one by kind, and renders the block',
    { timeout: 120_000 },
    async () => {
      const report = await runMiddlewareWorkloads(TINY, () => {});
      expect(report.window).toBe(MIDDLEWARE_WINDOW);
      expect(Object.keys(report.packages)).toEqual(['ai', '@ai-sdk/openai-compatible', 'langchain', '@langchain/core', '@langchain/openai']);
      expect(report.cases.map((entry) => `${entry.framework} ${entry.wrapped ? 'wrapped' : 'plain'} ${entry.loopSteps}`)).toEqual([
        'ai-sdk plain 3',
        'ai-sdk wrapped 3',
        'langchain plain 3',
        'langchain wrapped 3',
        'ai-sdk plain 20',
        'ai-sdk wrapped 20',
        'langchain plain 20',
        'langchain wrapped 20',
      ]);
      for (const entry of report.cases) {
        expect(entry.runs).toBe(1);
        expect(entry.answeredOverWindow).toBe(0);
        expect(entry.largestPromptTokens + MIDDLEWARE_REPLY_LIMIT).toBeLessThanOrEqual(MIDDLEWARE_WINDOW);
        // The middleware's own time is there exactly when there is a middleware.
        expect(Number.isFinite(entry.all.middlewareMedianMs)).toBe(entry.wrapped);
      }

      for (const entry of report.cases.filter((candidate) => candidate.loopSteps === 3)) {
        // Three tool results and the answer: four model calls, every one fitting.
        expect(entry.refusedSteps).toEqual([]);
        expect(entry.all.steps).toBe(4);
        expect(entry.byKind.map((split) => split.kind)).toEqual([entry.wrapped ? 'fits' : 'plain']);
        expect(entry.largestHistoryTokens).toBe(0);
        if (entry.wrapped) expect(entry.added?.pairs).toBe(4);
      }

      for (const framework of ['ai-sdk', 'langchain'] as const) {
        const plain = report.cases.find((entry) => entry.framework === framework && entry.loopSteps === 20 && !entry.wrapped)!;
        const wrapped = report.cases.find((entry) => entry.framework === framework && entry.loopSteps === 20 && entry.wrapped)!;
        // The plain model is refused once the history passes the window; its answered steps are the ones before.
        expect(plain.refusedSteps).toHaveLength(1);
        const refused = plain.refusedSteps[0]!;
        expect(refused).toBeGreaterThan(4);
        expect(refused).toBeLessThan(21);
        expect(plain.all.steps).toBe(refused - 1);
        // The wrapped model runs all 21 calls, compacting and reusing, with a history past the window.
        expect(wrapped.refusedSteps).toEqual([]);
        expect(wrapped.all.steps).toBe(21);
        expect(wrapped.byKind.map((split) => split.kind)).toEqual(['fits', 'reused', 'compacted']);
        expect(wrapped.byKind.reduce((sum, split) => sum + split.statistics.steps, 0)).toBe(21);
        expect(wrapped.byKind[0]!.statistics.steps).toBe(refused - 1);
        expect(wrapped.largestHistoryTokens).toBeGreaterThan(MIDDLEWARE_WINDOW);
        expect(wrapped.added?.pairs).toBe(refused - 1);
        // Steps up to the middle one (11) all fit: no reused step to set against the later ones.
        expect(wrapped.reusedByHalf).toBeUndefined();
      }

      const section = middlewareSection(9, report).join('\n');
      expect(section).toMatch(/^## 9\. Middlewares: overhead per agent step\n\n<!-- recorded: middleware -->\n[\s\S]*\n<!-- \/recorded -->\n$/);
      expect(section).toContain('| AI SDK `generateText` | 3 steps | wrapped | fits (sent as it came) | 4 |');
      expect(section).toContain('| LangChain `createAgent` | 20 steps | wrapped | compacted now |');
      expect(section).toMatch(/\| AI SDK `generateText` \| 20 steps \| plain \| none: plain model, refused at step \d+ \|/);
      expect(section).toMatch(/\| LangChain `createAgent` \| 3 steps \| 4 \| \*\*[+−][\d.]+\*\* \|/);
      expect(middlewareSection(9, { skipped: 'not part of quick mode' }).join('\n')).toContain('Skipped: not part of quick mode');
    },
  );
});
