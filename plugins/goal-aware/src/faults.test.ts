import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OllmError, checkpointOf, compactWith, isCheckpointMessage, type CompactionResult } from '@ollm/core';
import { createGoalAwareProvider } from './index.js';
import { GOAL, buildConversation } from './test-support/build-conversation.js';
import { CLIENT_KINDS, FAULT_CASES, startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { createModel } from './test-support/fake-models.js';

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const SUMMARY_MAX_TOKENS = 300;

describe.each(CLIENT_KINDS)('goal-aware under every fault of the fake server (%s client)', (kind) => {
  it.each(FAULT_CASES)('$name: $expect, the caller input unchanged, nothing lost', async (faultCase) => {
    // Two earlier compressions, so aging calls run under the fault too.
    const model = createModel(server, kind, { maxRetries: 2, ...(faultCase.timeoutMs ? { timeoutMs: faultCase.timeoutMs } : {}) });
    const provider = createGoalAwareProvider({ summaryMaxTokens: SUMMARY_MAX_TOKENS, preserveRecent: 600 });
    let input = buildConversation(6);
    for (let round = 0; round < 2; round += 1) {
      input = [
        ...(await compactWith(provider, input, { config: { limit: 3000 }, context: { model, goal: GOAL } })).messages,
        ...buildConversation(4, `r${round}`).slice(1),
      ];
    }
    const copy = structuredClone(input);
    const logdir = mkdtempSync(join(tmpdir(), 'goal-aware-fault-'));
    server.setFault(faultCase.fault as never);
    const outcome = await compactWith(provider, input, { config: { limit: 3000, logdir }, context: { model, goal: GOAL } }).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    await server.resume();
    expect(input).toEqual(copy);

    if (faultCase.expect === 'typed-error') {
      expect('error' in outcome, 'expected a typed error').toBe(true);
      const error = (outcome as { error: unknown }).error;
      expect(OllmError.isInstance(error), String(error)).toBe(true);
      if (faultCase.code) expect((error as OllmError).code).toBe(faultCase.code);
      return;
    }
    expect('result' in outcome, String((outcome as { error?: unknown }).error)).toBe(true);
    const result = (outcome as { result: CompactionResult }).result;
    if (faultCase.expect === 'unchanged') {
      expect(result.messages).toEqual(input);
      expect(result.limitations.join('\n')).toMatch(/empty summary/);
      return;
    }
    expectNothingLost(input, result);
    for (const message of result.messages.filter(isCheckpointMessage)) {
      const checkpoint = checkpointOf(message)!;
      // Output targets hold even when the model overruns: level 3 = 300, then 150, 75, 38 (+ header).
      expect(checkpoint.currentTokens).toBeLessThanOrEqual(SUMMARY_MAX_TOKENS / 2 ** (3 - checkpoint.level) + 40);
    }
  });
});

/** Every input message is in the output, or saved under logdir byte for byte. */
function expectNothingLost(input: readonly { id: string }[], result: CompactionResult): void {
  const kept = new Set(result.messages.map((message) => message.id));
  for (const message of input) {
    if (kept.has(message.id)) continue;
    const entry = result.removed.find((removed) => removed.messageId === message.id && (removed.kind === 'message' || removed.kind === 'user-message'));
    expect(entry?.path && existsSync(entry.path), `message ${message.id} lost`).toBe(true);
    expect(JSON.parse(readFileSync(entry!.path!, 'utf8'))).toEqual(message);
  }
}
