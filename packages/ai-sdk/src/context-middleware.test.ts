import { InvalidArgumentError } from '@ollm/core';
import { ContextOverflowError } from '@ollm/runtime';
import { chatRequests, type FakeModelServer } from '@ollm/fake-model-server';
import { generateText, wrapLanguageModel } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { contextMiddleware, PromptTooLargeError, promptToMessages, type CallOptions, type CompactionEvent, type Prompt } from './index.js';
import { fileText, SMALL_MODEL, startFakeProvider, temporaryFolder } from './test-support/agent-fixture.js';

let fake: FakeModelServer | undefined;
let folder: ReturnType<typeof temporaryFolder> | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  folder?.remove();
  folder = undefined;
});

/** A prompt of a task and `steps` tool steps, each result a file's text. */
function toolSteps(steps: number): Prompt {
  const prompt: Prompt = [{ role: 'user', content: [{ type: 'text', text: 'Read the modules.' }] }];
  for (let index = 0; index < steps; index += 1) {
    const toolCallId = `call-${index}`;
    prompt.push(
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId, toolName: 'read_file', input: { path: `src/module-${index}.ts` } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId, toolName: 'read_file', output: { type: 'text', value: fileText(index) } }] },
    );
  }
  return prompt;
}

function transform(middleware: ReturnType<typeof contextMiddleware>, params: CallOptions): Promise<CallOptions> {
  return Promise.resolve(middleware.transformParams!({ type: 'generate', params, model: undefined as never }));
}

describe('contextMiddleware', () => {
  it('rejects a prompt whose last user message alone is over the window, sending nothing', async () => {
    const started = await startFakeProvider();
    fake = started.fake;
    folder = temporaryFolder();
    const model = wrapLanguageModel({ model: started.model, middleware: contextMiddleware({ contextSize: SMALL_MODEL.contextLength, logdir: folder.path }) });
    const huge = Array.from({ length: 20 }, (_, index) => fileText(index)).join('\n');

    const error = await generateText({ model, system: 'Be brief.', prompt: huge, maxOutputTokens: 200, maxRetries: 0 }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(PromptTooLargeError);
    expect(ContextOverflowError.isInstance(error)).toBe(true);
    const tooLarge = error as PromptTooLargeError;
    expect(tooLarge.messageIndex).toBe(1);
    expect(tooLarge.messageTokens).toBeGreaterThan(SMALL_MODEL.contextLength);
    expect(tooLarge.message).toMatch(
      /^The prompt needs [\d,]+ tokens but the call has room for 3,896: contextSize 4,096 less 200 for the reply \(maxOutputTokens, else replyReserve\); the last user message \(prompt message 1\) alone is [\d,]+ tokens; shorten or split it, or raise contextSize\. Nothing was sent\.$/,
    );
    expect(chatRequests(fake)).toHaveLength(0);
  });

  it('says so when maxOutputTokens leaves no room for any prompt', async () => {
    const middleware = contextMiddleware({ contextSize: 1000, logdir: '.' });
    const error = await transform(middleware, { prompt: toolSteps(0), maxOutputTokens: 1000 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PromptTooLargeError);
    expect((error as Error).message).toMatch(
      /has room for 0: contextSize 1,000 less 1,000 for the reply .*; lower maxOutputTokens or raise contextSize\. Nothing was sent\.$/,
    );
  });

  it('refuses options it cannot use with an error naming them', () => {
    for (const contextSize of [0, -5, 1.5, Number.NaN]) {
      const error = (() => {
        try {
          contextMiddleware({ contextSize, logdir: '.' });
        } catch (caught) {
          return caught;
        }
      })();
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as InvalidArgumentError).argument).toBe('contextSize');
    }
    expect(() => contextMiddleware({ contextSize: 4096, replyReserve: 4096, logdir: '.' })).toThrow(
      /replyReserve must be a whole number of tokens from 0 to less than contextSize \(4096\); got 4096/,
    );
    expect(() => contextMiddleware({ contextSize: 4096, recall: { maxTokens: 0 }, logdir: '.' })).toThrow(/recall.maxTokens must be a whole number/);
  });

  it('counts the tool definitions and keeps 15% of the window for the reply when the call sets no maxOutputTokens', async () => {
    folder = temporaryFolder();
    const events: CompactionEvent[] = [];
    const middleware = contextMiddleware({ contextSize: 4000, logdir: folder.path, onCompaction: (event) => events.push(event) });
    const prompt = toolSteps(5);
    const promptTokens = middleware.tokens.countMessages(promptToMessages(prompt).messages);
    // Under 3,400 (4,000 less 15%) alone; over it with the tool definitions.
    expect(promptTokens).toBeLessThan(3400);
    const tools: CallOptions['tools'] = [
      { type: 'function', name: 'read_file', description: fileText(99), inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
    ];
    const toolTokens = middleware.tokens.countText(JSON.stringify(tools));
    expect(promptTokens + toolTokens).toBeGreaterThan(3400);

    const plain = await transform(middleware, { prompt });
    expect(plain.prompt).toBe(prompt);
    expect(events).toHaveLength(0);
    const withTools = await transform(middleware, { prompt, tools });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: 'compacted', budget: 4000 - 600 - toolTokens, tokensBefore: promptTokens });
    expect(events[0]!.tokensAfter).toBeLessThanOrEqual(events[0]!.budget);
    expect(withTools.tools).toBe(tools);
    // The call is otherwise the same call.
    const { prompt: _compacted, ...rest } = withTools;
    expect(rest).toEqual({ tools });
  });

  it('uses replyReserve when the call sets no maxOutputTokens, and maxOutputTokens when it does', async () => {
    folder = temporaryFolder();
    const events: CompactionEvent[] = [];
    const middleware = contextMiddleware({ contextSize: 2000, replyReserve: 100, logdir: folder.path, onCompaction: (event) => events.push(event) });
    await transform(middleware, { prompt: toolSteps(6) });
    await transform(middleware, { prompt: toolSteps(6), maxOutputTokens: 500 });
    expect(events.map((event) => event.budget)).toEqual([1900, 1500]);
  });
});
