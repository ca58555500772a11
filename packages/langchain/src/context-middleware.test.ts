import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { InvalidArgumentError, OllmError } from '@ollm/core';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { ContextOverflowError } from '@ollm/runtime';
import { createAgent } from 'langchain';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CONTEXT_MIDDLEWARE_NAME, contextMiddleware, type CompactionEvent } from './context-middleware.js';
import { RequestTooLargeError } from './request-too-large-error.js';
import { resolveReplyReserve } from './reply-reserve.js';
import { MODELS, WINDOW, chats, readFile, temporaryFolders, testModel } from './test-support/agent-fixtures.js';
import { sendThrough } from './test-support/middleware-request.js';

const folder = temporaryFolders('ollm-langchain-middleware-');

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function toolConversation(steps: number, lines: number): BaseMessage[] {
  const messages: BaseMessage[] = [new HumanMessage('Read the files.')];
  for (let step = 0; step < steps; step += 1) {
    const id = `call-${step}`;
    messages.push(new AIMessage({ content: '', tool_calls: [{ type: 'tool_call', id, name: 'read_file', args: { path: `src/f${step}.ts` } }] }));
    messages.push(new ToolMessage({ tool_call_id: id, content: `export const value_${step} = load_config(${step});\n`.repeat(lines) }));
  }
  return messages;
}

describe('contextMiddleware', () => {
  it('rejects a conversation that cannot fit with a ContextOverflowError, and sends nothing', async () => {
    server = await startFakeModelServer({ models: MODELS, enforceWindow: true });
    const agent = createAgent({ model: testModel(server), tools: [readFile], middleware: [contextMiddleware({ contextSize: WINDOW, logdir: folder() })] });
    // The task alone is over the window: no stage may fold it.
    const task = `Review this file:\n${'const limit = parse_limit(value) + offset;\n'.repeat(600)}`;

    const error = await agent.invoke({ messages: [{ role: 'user', content: task }] }).then(
      () => undefined,
      (reason: unknown) => reason,
    );

    expect(error).toBeInstanceOf(Error);
    // LangChain wraps what a middleware throws in a MiddlewareError; ollm's typed error is its cause.
    const cause = (error as Error).cause;
    expect(cause).toBeInstanceOf(RequestTooLargeError);
    expect(ContextOverflowError.isInstance(cause)).toBe(true);
    expect(OllmError.isInstance(cause)).toBe(true);
    expect((error as Error).message).toBe((cause as Error).message);
    expect((error as Error).message).toMatch(
      /^The request needs [\d,]+ tokens but the call has room for [\d,]+: contextSize 4,096 less 256 for the reply \(replyReserve, else the model's maxTokens\) and \d+ for the tool definitions; what no compaction may drop \(the system prompt, the task and the latest human message\) is that large; shorten it or raise contextSize\. Nothing was sent\.$/,
    );
    expect(chats(server)).toHaveLength(0);
  });

  it('counts the bound tools against the window', async () => {
    const messages = toolConversation(8, 20);
    const events: CompactionEvent[] = [];
    const described = tool(async () => 'ok', {
      name: 'search_documents',
      description: `Search the documents. ${'Each document is indexed by title, author, date and tags. '.repeat(250)}`,
      schema: z.object({ query: z.string() }),
    });
    const middleware = contextMiddleware({ contextSize: WINDOW, replyReserve: 256, logdir: folder(), onCompaction: (event) => events.push(event) });

    const plain = await sendThrough(middleware, messages, undefined);
    expect(plain.sent.messages).toBe(messages);
    expect(events).toEqual([]);

    await sendThrough(middleware, messages, undefined, { tools: [described] });
    expect(events).toHaveLength(1);
    const [event] = events as [CompactionEvent];
    expect(event.action).toBe('compacted');
    expect(event.tokensBefore).toBeLessThan(WINDOW - 256);
    expect(event.budget).toBeLessThan(event.tokensBefore);
    expect(event.tokensAfter).toBeLessThanOrEqual(event.budget);
  });

  it('keeps the reply reserve the model is configured with, and checks it', () => {
    expect(resolveReplyReserve(4096, undefined, { maxTokens: 300 })).toBe(300);
    expect(resolveReplyReserve(4096, 100, { maxTokens: 300 })).toBe(100);
    expect(resolveReplyReserve(4096, undefined, { maxOutputTokens: 200 })).toBe(200);
    expect(resolveReplyReserve(4096, undefined, { maxTokens: -1 })).toBe(614);
    expect(resolveReplyReserve(4096, undefined, {})).toBe(614);
    expect(() => resolveReplyReserve(4096, undefined, { maxTokens: 3000 })).toThrow(
      /the reply reserve \(the model's maxTokens\) must be a whole number of tokens from 0 to half the context size \(2048 of 4096\); got 3000/,
    );
  });

  it('rejects bad options with InvalidArgumentErrors that say what to give', () => {
    const cases: [unknown, RegExp][] = [
      [{ contextSize: 0 }, /contextSize must be the model's window in tokens, a whole number above 0; got 0/],
      [{ contextSize: 1.5 }, /got 1.5/],
      [{ contextSize: '4096' }, /got 4096/],
      [{ contextSize: 4096, stages: [] }, /stages must be a non-empty array of ollm context providers/],
      [{ contextSize: 4096, stages: [{ name: 'nope' }] }, /stages must be a non-empty array/],
      [{ contextSize: 4096, replyReserve: 3000 }, /the reply reserve \(replyReserve\) must be a whole number/],
      [{ contextSize: 4096, logdir: '' }, /logdir must be a folder path/],
      [undefined, /give the options, at least \{ contextSize \}/],
    ];
    for (const [options, message] of cases) {
      let thrown: unknown;
      try {
        contextMiddleware(options as never);
      } catch (error) {
        thrown = error;
      }
      expect(InvalidArgumentError.isInstance(thrown), String(message)).toBe(true);
      expect((thrown as Error).message).toMatch(message);
    }
  });

  it('is a LangChain middleware with a name and no hooks but wrapModelCall', () => {
    const middleware = contextMiddleware({ contextSize: WINDOW, logdir: folder() });
    expect(middleware.name).toBe(CONTEXT_MIDDLEWARE_NAME);
    expect(typeof middleware.wrapModelCall).toBe('function');
    expect(middleware.beforeModel).toBeUndefined();
    expect(middleware.afterModel).toBeUndefined();
  });
});
