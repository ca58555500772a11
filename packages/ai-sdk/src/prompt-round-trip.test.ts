import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextMiddleware, messagesToPrompt, promptProblems, promptToMessages, type CallOptions, type Prompt, type PromptPart } from './index.js';
import { promptArbitrary } from './test-support/prompt-arbitrary.js';
import { temporaryFolder } from './test-support/agent-fixture.js';

let folder: ReturnType<typeof temporaryFolder>;
beforeAll(() => {
  folder = temporaryFolder();
});
afterAll(() => folder.remove());

const MAX_OUTPUT = 100;

function transform(middleware: ReturnType<typeof contextMiddleware>, prompt: Prompt) {
  const params: CallOptions = { prompt, maxOutputTokens: MAX_OUTPUT };
  return { params, result: middleware.transformParams!({ type: 'generate', params, model: undefined as never }) };
}

function promptTokens(middleware: ReturnType<typeof contextMiddleware>, prompt: Prompt): number {
  return middleware.tokens.countMessages(promptToMessages(prompt).messages);
}

function partsOf(prompt: Prompt): PromptPart[] {
  return prompt.flatMap((message): PromptPart[] => (message.role === 'system' ? [] : message.content));
}

describe('the prompt round trip', () => {
  it('reads any prompt as ollm messages and turns them back into the very same message objects', () => {
    fc.assert(
      fc.property(promptArbitrary(), (prompt) => {
        const conversion = promptToMessages(prompt);
        const back = messagesToPrompt(conversion.messages, conversion);
        expect(back).toHaveLength(prompt.length);
        back.forEach((message, index) => expect(message).toBe(prompt[index]));
      }),
      { numRuns: 200 },
    );
  });

  it('gives a prompt under the budget back untouched: the same params, the same objects', async () => {
    await fc.assert(
      fc.asyncProperty(promptArbitrary(), fc.nat(50), async (prompt, room) => {
        const probe = contextMiddleware({ contextSize: 1_000_000, logdir: folder.path });
        const contextSize = promptTokens(probe, prompt) + MAX_OUTPUT + room;
        const { params, result } = transform(contextMiddleware({ contextSize, logdir: folder.path }), prompt);
        const returned = await result;
        expect(returned).toBe(params);
        expect(returned.prompt).toBe(prompt);
      }),
      { numRuns: 100 },
    );
  });

  it('compacts a prompt over the budget to fit, keeping the system messages, the last user message and what every kept part carried', async () => {
    let compacted = 0;
    await fc.assert(
      fc.asyncProperty(promptArbitrary(16), fc.double({ min: 0.2, max: 0.9, noNaN: true }), async (prompt, share) => {
        const probe = contextMiddleware({ contextSize: 1_000_000, logdir: folder.path });
        const total = promptTokens(probe, prompt);
        const lastUser = prompt.findLastIndex((message) => message.role === 'user');
        const firstUser = prompt.findIndex((message) => message.role === 'user');
        const kept = promptTokens(probe, [...prompt.filter((message) => message.role === 'system'), prompt[firstUser]!, prompt[lastUser]!]);
        const budget = Math.max(Math.floor(total * share), 2 * kept + 120);
        fc.pre(budget < total);
        const middleware = contextMiddleware({ contextSize: budget + MAX_OUTPUT, logdir: folder.path, onCompaction: () => (compacted += 1) });
        const { result } = transform(middleware, prompt);
        const output = (await result).prompt;

        expect(promptTokens(probe, output)).toBeLessThanOrEqual(budget);
        expect(promptProblems(output)).toEqual([]);
        // System messages: the same objects, in the same places at the start.
        const systems = prompt.filter((message) => message.role === 'system');
        expect(output.slice(0, systems.length)).toEqual(systems);
        output.slice(0, systems.length).forEach((message, index) => expect(message).toBe(systems[index]));
        expect(output.slice(systems.length).some((message) => message.role === 'system')).toBe(false);
        // The last user message, word for word (the same object), still the last user message.
        expect(output.findLast((message) => message.role === 'user')).toBe(prompt[lastUser]);
        // A kept call or result keeps its tool name and provider options; an output keeps its kind where it still fits.
        const inputs = new Map(
          partsOf(prompt).flatMap((part) => (part.type === 'tool-call' || part.type === 'tool-result' ? [[`${part.type} ${part.toolCallId}`, part]] : [])),
        );
        for (const part of partsOf(output)) {
          if (part.type !== 'tool-call' && part.type !== 'tool-result') continue;
          const input = inputs.get(`${part.type} ${part.toolCallId}`)!;
          expect(input).toBeDefined();
          expect(part.toolName).toBe(input.toolName);
          expect(part.providerOptions).toEqual(input.providerOptions);
          if (part.type === 'tool-result' && input.type === 'tool-result') {
            const kinds: Record<string, string[]> = {
              text: ['text'],
              'error-text': ['error-text'],
              json: ['json', 'text'],
              'error-json': ['error-json', 'error-text'],
              'execution-denied': ['execution-denied'],
              content: ['content'],
            };
            expect(kinds[input.output.type]).toContain(part.output.type);
            const optionsOf = (output: object) => ('providerOptions' in output ? output.providerOptions : undefined);
            expect(optionsOf(part.output)).toEqual(optionsOf(input.output));
          }
        }
        // A message that came back changed keeps its provider options: one holding a kept call or result has its source's.
        const sourceOf = (part: PromptPart) =>
          prompt.find(
            (message) =>
              message.role !== 'system' &&
              message.content.some((candidate) => candidate === inputs.get(`${part.type} ${(part as { toolCallId: string }).toolCallId}`)),
          );
        for (const message of output) {
          if (message.role === 'system') continue;
          const part = message.content.find((candidate) => candidate.type === 'tool-call' || candidate.type === 'tool-result');
          if (part !== undefined) expect(message.providerOptions).toBe(sourceOf(part)!.providerOptions);
          // Any other: its source's, or none (a note a stage wrote in place of dropped turns).
          else if (message.providerOptions !== undefined) expect(prompt.some((candidate) => candidate.providerOptions === message.providerOptions)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
    expect(compacted).toBe(150);
  });
});
