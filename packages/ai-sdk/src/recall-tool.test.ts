import { createHash } from 'node:crypto';
import { createTokenizer, InvalidArgumentError, saveRemovedContent, TokenCounter } from '@ollm/core';
import { chatRequests, type FakeChatRequest, type FakeModelServer } from '@ollm/fake-model-server';
import { generateText, stepCountIs, wrapLanguageModel, type ToolExecutionOptions } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { contextMiddleware, createRecallTool } from './index.js';
import { fileText, readFileTool, SMALL_MODEL, startFakeProvider, temporaryFolder } from './test-support/agent-fixture.js';

let fake: FakeModelServer | undefined;
let folder: ReturnType<typeof temporaryFolder> | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  folder?.remove();
  folder = undefined;
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const PLACEHOLDER = /\[ollm fold ([0-9a-f]{12})\]/;
const execution: ToolExecutionOptions = { toolCallId: 'call-1', messages: [] };

describe('the recall tool in an agent loop', () => {
  it('gives the model back, byte for byte, a tool output a placeholder in its request stands for', async () => {
    const { read_file, outputs } = readFileTool();
    let recalled: { reference: string; callId: string } | undefined;
    /** The fake model: reads files; once a request shows a folded output, recalls it by the reference the placeholder prints. */
    const toolCalls = (request: FakeChatRequest) => {
      if (recalled === undefined && outputs.size >= 8) {
        for (const message of request.messages) {
          for (const part of message.parts) {
            const reference = part.type === 'tool-result' ? PLACEHOLDER.exec(part.output)?.[1] : undefined;
            // The placeholder of this output itself (a digest), not of a whole folded turn.
            if (part.type === 'tool-result' && reference !== undefined && sha256(outputs.get(part.callId) ?? '').startsWith(reference)) {
              recalled = { reference, callId: part.callId };
              return [{ name: 'recall', arguments: { reference } }];
            }
          }
        }
      }
      return outputs.size < 24 ? [{ name: 'read_file', arguments: { path: `src/module-${outputs.size}.ts` } }] : undefined;
    };
    const started = await startFakeProvider({ toolCalls, reply: () => 'done' });
    fake = started.fake;
    folder = temporaryFolder();
    const context = contextMiddleware({ contextSize: SMALL_MODEL.contextLength, logdir: folder.path, recall: true });

    const result = await generateText({
      model: wrapLanguageModel({ model: started.model, middleware: context }),
      prompt: 'Read src/module-0.ts onwards.',
      tools: { read_file, ...context.tools },
      maxOutputTokens: 256,
      stopWhen: stepCountIs(40),
    });

    expect(result.text).toBe('done');
    expect(recalled).toBeDefined();
    const chats = chatRequests(fake);
    for (const request of chats) expect(request.promptTokens + (request.maxTokens ?? 0)).toBeLessThanOrEqual(SMALL_MODEL.contextLength);
    const recallCall = chats
      .flatMap((request) => request.messages)
      .flatMap((message) => message.parts)
      .find((part) => part.type === 'tool-call' && part.name === 'recall');
    expect(recallCall).toBeDefined();
    // The request after the recall carries its result as the tool message's content: the removed output exactly.
    const carrying = chats.find((request) =>
      (request.body as { messages: { role: string; tool_call_id?: string }[] }).messages.some(
        (message) => message.role === 'tool' && message.tool_call_id === (recallCall as { callId: string }).callId,
      ),
    )!;
    const wire = (carrying.body as { messages: { role: string; tool_call_id?: string; content: string }[] }).messages.find(
      (message) => message.role === 'tool' && message.tool_call_id === (recallCall as { callId: string }).callId,
    )!;
    const original = outputs.get(recalled!.callId)!;
    expect(wire.content).toBe(original);
    expect(Buffer.from(wire.content, 'utf8').equals(Buffer.from(original, 'utf8'))).toBe(true);
  });
});

describe('createRecallTool', () => {
  const tokens = new TokenCounter(createTokenizer('o200k_base'));

  it('returns saved content in pages of at most maxTokens, which join to the content byte for byte', async () => {
    folder = temporaryFolder();
    const content = Array.from({ length: 6 }, (_, index) => fileText(index)).join('\n');
    const { sha256: reference } = saveRemovedContent(folder.path, content);
    const recall = createRecallTool({ logdir: folder.path, maxTokens: 200, tokens });
    const pages: string[] = [];
    let offset: number | undefined = 0;
    while (offset !== undefined) {
      const output = (await recall.execute!({ reference: reference.slice(0, 12), offset }, execution)) as string;
      const match = /\n\[ollm recall: characters (\d+)-(\d+) of (\d+); call recall with offset (\d+) for more\]$/.exec(output);
      const text = match ? output.slice(0, match.index) : output;
      expect(tokens.countText(text)).toBeLessThanOrEqual(200);
      pages.push(text);
      offset = match ? Number(match[4]) : undefined;
    }
    expect(pages.length).toBeGreaterThan(3);
    expect(pages.join('')).toBe(content);
  });

  it('answers a reference nothing was saved under with a message for the model', async () => {
    folder = temporaryFolder();
    const recall = createRecallTool({ logdir: folder.path, maxTokens: 200, tokens });
    const error = await Promise.resolve(recall.execute!({ reference: '3f2a9c1e4b7d' }, execution)).catch((caught: unknown) => caught);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('Nothing removed from this conversation has the reference 3f2a9c1e4b7d.');
  });

  it('refuses a page size that is no whole number of tokens', () => {
    expect(() => createRecallTool({ logdir: '.', maxTokens: 0, tokens })).toThrow(/recall.maxTokens must be a whole number/);
  });

  it('offers the core recall tool: its description and input schema', () => {
    const context = contextMiddleware({ contextSize: 4096, logdir: '.', recall: true });
    expect(Object.keys(context.tools)).toEqual(['recall']);
    expect(context.tools['recall']!.description).toMatch(/^Take back content that was removed/);
    expect(Object.keys(contextMiddleware({ contextSize: 4096, logdir: '.' }).tools)).toEqual([]);
  });
});
