import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OllmError, compactWith, messageText, type CompactionResult, type Message } from '@ollm/core';
import { createSummarizeProvider } from './index.js';
import { CLIENT_KINDS, FAULT_CASES, startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { createModel } from './test-support/fake-models.js';

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

function conversation(): Message[] {
  const messages: Message[] = [{ id: 'system', role: 'system', parts: [{ type: 'text', text: 'You are a careful coding assistant.' }] }];
  for (let turn = 0; turn < 5; turn += 1) {
    messages.push(
      { id: `user-${turn}`, role: 'user', parts: [{ type: 'text', text: `Fix bug ${turn} in src/app.py.` }] },
      { id: `call-${turn}`, role: 'assistant', parts: [{ type: 'tool-call', callId: `c${turn}`, name: 'bash', input: { command: 'pytest' } }] },
      {
        id: `result-${turn}`,
        role: 'tool',
        parts: [{ type: 'tool-result', callId: `c${turn}`, name: 'bash', output: `FAILED test_${turn} - AssertionError\n`.repeat(60) }],
      },
    );
  }
  return messages;
}

describe.each(CLIENT_KINDS)('summarize under every fault of the fake server (%s client)', (kind) => {
  it.each(FAULT_CASES)('$name: $expect, the caller input unchanged, nothing lost', async (faultCase) => {
    const input = conversation();
    const copy = structuredClone(input);
    const logdir = mkdtempSync(join(tmpdir(), 'summarize-fault-'));
    const model = createModel(server, kind, { maxRetries: 2, ...(faultCase.timeoutMs ? { timeoutMs: faultCase.timeoutMs } : {}) });
    server.setFault(faultCase.fault as never);
    const outcome = await compactWith(createSummarizeProvider({ resumeMaxTokens: 400 }), input, {
      config: { limit: 1000, logdir, extraConfig: { workspace: logdir } },
      context: { model },
    }).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    await server.resume();
    expect(input).toEqual(copy);
    if (faultCase.expect === 'typed-error') {
      const error = (outcome as { error?: unknown }).error;
      expect(OllmError.isInstance(error), String(error)).toBe(true);
      if (faultCase.code) expect((error as OllmError).code).toBe(faultCase.code);
      return;
    }
    const result = (outcome as { result?: CompactionResult }).result!;
    expect(result, String((outcome as { error?: unknown }).error)).toBeDefined();
    if (faultCase.expect === 'unchanged') {
      expect(result.messages).toEqual(input);
      expect(result.limitations.join('\n')).toMatch(/empty RESUME/);
      return;
    }
    // The RESUME is within its budget even when the model overran, and every dropped message is saved.
    const resume = result.messages.find((message) => messageText(message).startsWith('[ollm resume'))!;
    expect(messageText(resume).length).toBeLessThan(4000);
    const kept = new Set(result.messages.map((message) => message.id));
    for (const message of input.filter((candidate) => !kept.has(candidate.id))) {
      const entry = result.removed.find((removed) => removed.messageId === message.id)!;
      expect(existsSync(entry.path!)).toBe(true);
      expect(JSON.parse(readFileSync(entry.path!, 'utf8'))).toEqual(message);
    }
  });
});
