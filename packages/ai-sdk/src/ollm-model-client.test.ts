import { withParts, type ContextProviderV2 } from '@ollm/core';
import { chatRequests, type FakeModelServer } from '@ollm/fake-model-server';
import { afterEach, describe, expect, it } from 'vitest';
import { contextMiddleware, ollmModelClient, type Prompt } from './index.js';
import { fileText, SMALL_MODEL, startFakeProvider, temporaryFolder } from './test-support/agent-fixture.js';

let fake: FakeModelServer | undefined;
let folder: ReturnType<typeof temporaryFolder> | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  folder?.remove();
  folder = undefined;
});

describe('ollmModelClient', () => {
  it('sends an ollm model call through an AI SDK model: leading system messages as the system prompt, the reply limit as max_tokens', async () => {
    const started = await startFakeProvider({ reply: () => 'A short summary.' });
    fake = started.fake;
    const client = ollmModelClient(started.model);
    expect(client).toMatchObject({ specificationVersion: 'v1', provider: 'fake.chat', modelId: SMALL_MODEL.name });

    const result = await client.complete({
      messages: [
        { id: 's', role: 'system', parts: [{ type: 'text', text: 'Summarise.' }] },
        { id: 'u', role: 'user', parts: [{ type: 'text', text: 'The conversation.' }] },
      ],
      maxOutputTokens: 50,
    });

    expect(result.text).toBe('A short summary.');
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    const [request] = chatRequests(fake);
    expect(request!.body).toMatchObject({
      model: SMALL_MODEL.name,
      max_tokens: 50,
      messages: [
        { role: 'system', content: 'Summarise.' },
        { role: 'user', content: 'The conversation.' },
      ],
    });
  });

  it('is what a model stage of the middleware calls when `model` is an AI SDK model', async () => {
    const started = await startFakeProvider({ reply: () => 'Summary of an earlier answer.' });
    fake = started.fake;
    folder = temporaryFolder();
    // A model stage: every assistant answer but the last becomes the model's summary of it.
    const summarise: ContextProviderV2 = {
      specificationVersion: 'v2',
      name: 'test-summary',
      usesModel: true,
      async compress({ messages, model }) {
        const last = messages.findLastIndex((message) => message.role === 'assistant');
        const output = [];
        for (const [index, message] of messages.entries()) {
          if (message.role !== 'assistant' || index === last) {
            output.push(message);
            continue;
          }
          const { text } = await model!.complete({ messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text: `Summarise: ${message.id}` }] }] });
          output.push(withParts(message, [{ type: 'text', text }]));
        }
        return { messages: output };
      },
    };
    const middleware = contextMiddleware({ contextSize: 2048, stages: [summarise], model: started.model, logdir: folder.path });
    const prompt: Prompt = [];
    for (let index = 0; index < 4; index += 1) {
      prompt.push(
        { role: 'user', content: [{ type: 'text', text: `Question ${index}?` }] },
        { role: 'assistant', content: [{ type: 'text', text: fileText(index) }] },
      );
    }
    prompt.push({ role: 'user', content: [{ type: 'text', text: 'And now?' }] });

    const { prompt: compacted } = await middleware.transformParams!({ type: 'generate', params: { prompt, maxOutputTokens: 200 }, model: undefined as never });

    expect(chatRequests(fake).map((request) => (request.body as { messages: { content: string }[] }).messages[0]!.content)).toEqual([
      'Summarise: m1',
      'Summarise: m3',
      'Summarise: m5',
    ]);
    expect(compacted.map((message) => (message.role === 'assistant' ? message.content : undefined)).filter(Boolean)).toEqual([
      [{ type: 'text', text: 'Summary of an earlier answer.' }],
      [{ type: 'text', text: 'Summary of an earlier answer.' }],
      [{ type: 'text', text: 'Summary of an earlier answer.' }],
      prompt[7]!.content,
    ]);
  });
});
