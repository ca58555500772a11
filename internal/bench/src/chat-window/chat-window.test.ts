import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CASES, runChatWindowCase } from './chat-window-scenario.js';

const binary = fileURLToPath(new URL('../../../../apps/cli/dist/bin.js', import.meta.url));

/**
 * The scripted chat of docs/runtime.md against the loopback fake model server: the built `ollm`
 * binary, piped input, pastes of 1.2-5K tokens at 70-95% full, an exact and a 10x under-reporting
 * server, a resume from a snapshot at 99%, windows 2,048 / 4,096 / 16,384.
 */
describe.skipIf(!existsSync(binary))('the chat keeps every request inside the window (scripted, built binary)', () => {
  for (const input of DEFAULT_CASES) {
    it(`window ${input.window}, server reporting x${input.reportedScale}`, async () => {
      const result = await runChatWindowCase(binary, input);
      expect(result.requests).toBeGreaterThan(5);
      expect(result.overReserve).toBe(0);
      expect(result.overWindow).toBe(0);
      expect(result.withReplyLimit).toBe(result.requests);
      expect(result.largestShare).toBeLessThanOrEqual(0.85);
      expect(result.resumedFirstShare).toBeGreaterThan(0);
      expect(result.resumedFirstShare).toBeLessThanOrEqual(0.85);
      // A 5,000-token paste can never fit 2,048 or 4,096 tokens: refused, not sent over the window.
      if (input.window < 16_384) expect(result.refusedPastes).toBeGreaterThan(0);
      else expect(result.refusedPastes).toBe(0);
    });
  }
});
