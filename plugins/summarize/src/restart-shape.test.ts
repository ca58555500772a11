import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TokenCounter, checkMessageShape, compactWith, createTokenizer, messageText, type Message } from '@ollm/core';
import { chatRequests, startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { readTranscript } from '@ollm/transcripts';
import { createSummarizeProvider } from './index.js';
import { createModel } from './test-support/fake-models.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));
const FIXTURE = fileURLToPath(new URL('../../../fixtures/swe-agent-django/django__django-11848.traj.json', import.meta.url));
const emptyWorkspace = () => mkdtempSync(join(tmpdir(), 'summarize-empty-'));

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const say = (id: string, role: Message['role'], text: string, extra: Partial<Message> = {}): Message => ({
  id,
  role,
  parts: [{ type: 'text', text }],
  ...extra,
});

/** system, then `turns` x (user, assistant call, tool result, assistant answer). */
function session(turns: number): Message[] {
  const messages: Message[] = [say('s', 'system', 'You are a careful coding assistant.')];
  for (let turn = 0; turn < turns; turn += 1) {
    messages.push(
      say(`u${turn}`, 'user', `Request ${turn}: make src/module_${turn}.py accept negative values.`),
      { id: `c${turn}`, role: 'assistant', parts: [{ type: 'tool-call', callId: `k${turn}`, name: 'bash', input: { command: `cat src/module_${turn}.py` } }] },
      {
        id: `r${turn}`,
        role: 'tool',
        parts: [{ type: 'tool-result', callId: `k${turn}`, name: 'bash', output: 'def parse(value):\n    return int(value)\n'.repeat(40) }],
      },
      say(`a${turn}`, 'assistant', `I changed src/module_${turn}.py so parse accepts a sign. The tests pass now.`),
    );
  }
  return messages;
}

describe('summarize restarts in a shape every model API accepts', () => {
  it('keeps the task first and a latest request still waiting for its reply last, the RESUME between', async () => {
    const input = [...session(4), say('u-last', 'user', 'Now update docs/notes.md to match.')];
    const result = await compactWith(createSummarizeProvider({ workspace: emptyWorkspace() }), input, {
      config: { limit: 1500 },
      context: { model: createModel(server, 'ollama') },
      shape: 'strict',
    });
    expect(result.messages.map((message) => message.id.replace(/_.*/, ''))).toEqual(['s', 'u0', 'resume', 'u-last']);
    expect(result.messages[1]).toBe(input[1]);
    expect(result.messages.at(-1)).toBe(input.at(-1));
    expect(checkMessageShape(result.messages, 'strict')).toEqual([]);
  });

  it('puts a note between kept user messages with nothing between them (a pinned one), and keeps a pinned final message after the RESUME', async () => {
    const input = session(4).map((message) => (message.id === 'u2' ? { ...message, pinned: true } : message));
    input.push(say('exit', 'assistant', 'Submitted the patch.', { pinned: true }));
    const result = await compactWith(createSummarizeProvider({ workspace: emptyWorkspace() }), input, {
      config: { limit: 1500 },
      context: { model: createModel(server, 'openai') },
      shape: 'strict',
    });
    const ids = result.messages.map((message) => (message.id.startsWith('resume-note') ? 'note' : message.id.replace(/_.*/, '')));
    expect(ids).toEqual(['s', 'u0', 'note', 'u2', 'note', 'u3', 'resume', 'exit']);
    expect(messageText(result.messages[2]!)).toMatch(/summarised in the RESUME below/);
    expect(checkMessageShape(result.messages, 'strict')).toEqual([]);
  });

  it('reaches the target, not far below it: the RESUME asked for follows the limit', async () => {
    const { conversations } = await readTranscript(FIXTURE);
    const input = conversations[0]!.messages;
    const limit = Math.floor(tokens.countMessages(input) / 2);
    const result = await compactWith(createSummarizeProvider({ workspace: emptyWorkspace() }), input, {
      config: { limit },
      context: { model: createModel(server, 'ollama'), tokens },
      shape: 'strict',
    });
    // Before: a fixed 1,500-token RESUME, e.g. 578 tokens left of a 15,465-token target.
    expect(result.stats.tokensAfter).toBeLessThanOrEqual(limit);
    expect(result.stats.tokensAfter).toBeGreaterThan(0.6 * limit);
    // More than one reply may hold: the conversation was written up in parts, and they are kept.
    expect(messageText(result.messages.find((message) => message.id.startsWith('resume'))!)).toContain('## Conversation Parts');
    const window = Math.max(...chatRequests(server).map((request) => request.promptTokens + request.maxTokens!));
    expect(window).toBeLessThanOrEqual(8192);
  });

  it('an explicit resumeMaxTokens still caps the RESUME', async () => {
    const { conversations } = await readTranscript(FIXTURE);
    const input = conversations[0]!.messages;
    const result = await compactWith(createSummarizeProvider({ workspace: emptyWorkspace(), resumeMaxTokens: 300 }), input, {
      config: { limit: Math.floor(tokens.countMessages(input) / 2) },
      context: { model: createModel(server, 'ollama'), tokens },
    });
    const resume = result.messages.find((message) => message.id.startsWith('resume'))!;
    expect(tokens.countMessage(resume)).toBeLessThanOrEqual(300 + 60);
  });
});
