import fc from 'fast-check';
import type { Prompt, PromptMessage, PromptPart, PromptToolOutput } from '../prompt-types.js';

type Options = { providerOptions?: Record<string, Record<string, string>> };

/** Provider options, present or not, on a message, a part or an output. */
const providerOptions: fc.Arbitrary<Options> = fc
  .option(fc.constantFrom('cache', 'low', 'high'), { nil: undefined })
  .map((value) => (value === undefined ? {} : { providerOptions: { test: { hint: value } } }));

const word = fc.constantFrom(
  'read',
  'the',
  'parser',
  'config',
  'src/app.ts',
  'TypeError',
  'handleRequest',
  'user_id',
  'retry',
  'timeout',
  '42',
  'done',
  'and',
  'file',
);
/** Text of `min` to `max` words. */
const text = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max }).map((words) => words.join(' '));

const filePart = fc
  .tuple(fc.constantFrom<'url' | 'bytes' | 'base64'>('url', 'bytes', 'base64'), fc.option(text(1, 2), { nil: undefined }), providerOptions)
  .map(
    ([kind, filename, options]) =>
      ({
        type: 'file',
        mediaType: 'image/png',
        data: kind === 'url' ? new URL('https://example.com/a.png') : kind === 'bytes' ? new Uint8Array([1, 2, 3]) : 'AQID',
        ...(filename !== undefined ? { filename } : {}),
        ...options,
      }) as PromptPart,
  );

const output = (size: number): fc.Arbitrary<PromptToolOutput> =>
  fc.oneof(
    fc.tuple(text(size, size * 2), providerOptions).map(([value, options]) => ({ type: 'text' as const, value, ...options })),
    fc.tuple(text(size, size * 2), providerOptions).map(([value, options]) => ({ type: 'error-text' as const, value, ...options })),
    fc
      .tuple(fc.array(fc.record({ id: fc.nat(999), name: text(1, 3), note: text(size / 2, size) }), { minLength: 1, maxLength: 3 }), providerOptions)
      .map(([value, options]) => ({ type: 'json' as const, value, ...options })),
    fc.record({ error: text(size, size * 2) }).map((value) => ({ type: 'error-json' as const, value })),
    fc.option(text(1, 6), { nil: undefined }).map((reason) => ({ type: 'execution-denied' as const, ...(reason !== undefined ? { reason } : {}) })),
    text(size, size * 2).map((value) => ({
      type: 'content' as const,
      value: [
        { type: 'text' as const, text: value },
        { type: 'image-data' as const, data: 'AQID', mediaType: 'image/png' },
      ],
    })),
  );

interface TurnShape {
  readonly kind: 'user' | 'text' | 'tools';
  readonly parts: readonly PromptPart[];
  readonly calls: readonly { input: unknown; output: PromptToolOutput; callOptions: Options; resultOptions: Options }[];
  readonly options: Options;
}

const userTurn = (size: number): fc.Arbitrary<TurnShape> =>
  fc
    .tuple(fc.array(fc.tuple(text(1, size), providerOptions), { minLength: 1, maxLength: 2 }), fc.option(filePart, { nil: undefined }), providerOptions)
    .map(([texts, file, options]) => ({
      kind: 'user',
      parts: [...texts.map(([value, partOptions]) => ({ type: 'text' as const, text: value, ...partOptions })), ...(file ? [file] : [])],
      calls: [],
      options,
    }));

const assistantTurn = (size: number): fc.Arbitrary<TurnShape> =>
  fc
    .tuple(
      fc.option(fc.tuple(text(1, size), providerOptions), { nil: undefined }),
      fc.option(text(1, size), { nil: undefined }),
      fc.array(
        fc.record({
          input: fc.record({ path: text(1, 2), body: text(0, size) }),
          output: output(size),
          callOptions: providerOptions,
          resultOptions: providerOptions,
        }),
        {
          maxLength: 3,
        },
      ),
      providerOptions,
    )
    .map(([said, reasoning, calls, options]) => ({
      kind: calls.length > 0 ? 'tools' : 'text',
      parts: [
        ...(reasoning !== undefined ? [{ type: 'reasoning' as const, text: reasoning }] : []),
        ...(said !== undefined || calls.length === 0 ? [{ type: 'text' as const, text: said?.[0] ?? 'ok', ...(said?.[1] ?? {}) }] : []),
      ],
      calls,
      options,
    }));

/**
 * AI SDK prompts as `generateText` hands them to a model: system messages first, then user turns,
 * assistant replies (text, reasoning, tool calls) and tool messages with every call's result
 * (outputs of every kind), provider options here and there; `size` scales the texts.
 */
export function promptArbitrary(size = 12): fc.Arbitrary<Prompt> {
  return fc
    .tuple(
      fc.array(text(1, size), { minLength: 0, maxLength: 2 }),
      userTurn(size),
      fc.array(fc.oneof({ arbitrary: assistantTurn(size), weight: 3 }, { arbitrary: userTurn(size), weight: 1 }), { maxLength: 12 }),
    )
    .map(([systems, first, turns]) => {
      const prompt: PromptMessage[] = systems.map((content) => ({ role: 'system', content }));
      let callNumber = 0;
      for (const turn of [first, ...turns]) {
        if (turn.kind === 'user') {
          prompt.push({ role: 'user', content: turn.parts as Extract<PromptMessage, { role: 'user' }>['content'], ...turn.options });
          continue;
        }
        const ids = turn.calls.map(() => `call-${(callNumber += 1)}`);
        prompt.push({
          role: 'assistant',
          content: [
            ...(turn.parts as Extract<PromptMessage, { role: 'assistant' }>['content']),
            ...turn.calls.map((call, index) => ({
              type: 'tool-call' as const,
              toolCallId: ids[index]!,
              toolName: 'read_file',
              input: call.input,
              ...call.callOptions,
            })),
          ],
          ...turn.options,
        });
        if (turn.calls.length > 0) {
          prompt.push({
            role: 'tool',
            content: turn.calls.map((call, index) => ({
              type: 'tool-result' as const,
              toolCallId: ids[index]!,
              toolName: 'read_file',
              output: call.output,
              ...call.resultOptions,
            })),
          });
        }
      }
      return prompt;
    });
}
