import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { messageText } from '@ollm/core';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { createAgent } from 'langchain';
import { afterEach, describe, expect, it } from 'vitest';
import { contextMiddleware, type CompactionEvent } from './context-middleware.js';
import {
  MODELS,
  REPLY_TOKENS,
  TASK,
  WINDOW,
  chats,
  pairingProblems,
  readFile,
  shapeProblems,
  stepPath,
  temporaryFolders,
  testModel,
} from './test-support/agent-fixtures.js';

const folder = temporaryFolders('ollm-langchain-loop-');
const SYSTEM = 'You are a coding agent. Use read_file to read files; answer when you are done.';
const STEPS = 100;

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('contextMiddleware in a createAgent loop', () => {
  it('keeps all 101 calls of a 100-step tool loop inside a 4,096 window, valid, with the task, compacting only the new span', async () => {
    let step = 0;
    server = await startFakeModelServer({
      models: MODELS,
      enforceWindow: true,
      // One read_file call per step until 100 tool results came back, then a text answer ends the run.
      toolCalls: (request) => {
        if (!request.toolNames?.includes('read_file') || step >= STEPS) return undefined;
        step += 1;
        return [{ name: 'read_file', arguments: { path: stepPath(step) } }];
      },
    });
    const events: CompactionEvent[] = [];
    const agent = createAgent({
      model: testModel(server),
      tools: [readFile],
      systemPrompt: SYSTEM,
      middleware: [contextMiddleware({ contextSize: WINDOW, logdir: folder(), onCompaction: (event) => events.push(event) })],
    });

    const result = await agent.invoke({ messages: [{ role: 'user', content: TASK }] }, { recursionLimit: 4 * STEPS + 10 });

    // The run finished, and the agent's state kept the whole history: only what was sent was compacted.
    expect(result.messages.filter((message) => ToolMessage.isInstance(message))).toHaveLength(STEPS);
    expect(result.messages).toHaveLength(2 * STEPS + 2);
    expect((result.messages.at(-1) as AIMessage).tool_calls ?? []).toEqual([]);

    const requests = chats(server);
    expect(requests).toHaveLength(STEPS + 1);
    for (const [number, request] of requests.entries()) {
      // The server refused none (enforceWindow answers 400 to an oversized chat, and the run would have failed).
      expect(request.responseBody, `request ${number}`).toBeDefined();
      expect(request.promptTokens + (request.maxTokens ?? 0), `request ${number}`).toBeLessThanOrEqual(WINDOW);
      expect(request.maxTokens).toBe(REPLY_TOKENS);
      expect(shapeProblems(request.messages), `request ${number}`).toEqual([]);
      expect(pairingProblems(request.messages), `request ${number}`).toEqual([]);
      expect(messageText(request.messages[0]!)).toBe(SYSTEM);
      expect(request.messages[1]).toMatchObject({ role: 'user' });
      expect(messageText(request.messages[1]!)).toBe(TASK);
    }

    // The first steps fit as they were; from the first that did not, every step stands on a compaction.
    const first = STEPS + 1 - events.length;
    expect(first).toBeGreaterThan(1);
    expect(events.map((event) => event.messagesBefore)).toEqual(events.map((_, index) => 2 * (first + index) + 2));
    expect(events[0]).toMatchObject({ action: 'compacted', reusedMessages: 0, stages: ['fold'] });
    // The step after a compaction reuses it and processes nothing.
    expect(events[1]).toMatchObject({ action: 'reused', processedTokens: 0 });
    expect(events.filter((event) => event.action === 'reused').length).toBeGreaterThan(events.length / 2);
    for (const [index, event] of events.entries()) {
      expect(event.tokensAfter).toBeLessThanOrEqual(event.budget);
      // The middleware counts what it sends as the server does: the conversion drops nothing the model is sent.
      expect(event.tokensAfter).toBe(requests[first + index]!.promptTokens);
      expect(event.messagesAfter).toBe(requests[first + index]!.messages.length);
    }
    for (const event of events.slice(1).filter((event) => event.action === 'compacted')) {
      expect(event.reusedMessages).toBeGreaterThan(0);
      // What a compaction works on: the earlier compaction (under the budget) and the new span, not the history.
      expect(event.processedTokens).toBeLessThanOrEqual(event.budget + event.newSpanTokens);
      if (event.tokensBefore > 4 * WINDOW) expect(event.processedTokens).toBeLessThan(event.tokensBefore / 4);
    }
    const last = events.at(-1)!;
    expect(last.tokensBefore).toBeGreaterThan(9 * WINDOW);
    const processed = events.reduce((sum, event) => sum + event.processedTokens, 0);
    const history = events.reduce((sum, event) => sum + event.tokensBefore, 0);
    expect(processed).toBeLessThan(history / 10);
  });
});
