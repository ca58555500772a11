import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { convertMessagesToCompletionsMessageParams } from '@langchain/openai';
import { createTokenizer, TokenCounter, withParts, type ContextProviderV2, type Message } from '@ollm/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contextMiddleware, type CompactionEvent } from './context-middleware.js';
import { MessageBridge } from './message-bridge.js';
import { temporaryFolders } from './test-support/agent-fixtures.js';
import { orphanProblems, sendThrough } from './test-support/middleware-request.js';

const folder = temporaryFolders('ollm-langchain-bridge-');
const tokens = new TokenCounter(createTokenizer('o200k_base'));

const word = fc.constantFrom(
  'parse_limit',
  'QuerySet',
  'src/app.ts',
  'value',
  'the',
  'returns',
  'TypeError',
  'load_config',
  'cache',
  'limit',
  'result',
  'of',
  'a',
);
const sentence = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max }).map((words) => words.join(' '));
const lines = (min: number, max: number) => fc.array(sentence(3, 12), { minLength: min, maxLength: max }).map((all) => all.join('\n'));

const toolTurn = fc.record({
  kind: fc.constant('tools' as const),
  calls: fc.integer({ min: 1, max: 3 }),
  outputs: fc.array(lines(3, 40), { minLength: 3, maxLength: 3 }),
  errors: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
  text: fc.option(sentence(1, 20), { nil: undefined }),
  reasoning: fc.option(sentence(3, 30), { nil: undefined }),
  reasoningAs: fc.constantFrom('kwarg' as const, 'block' as const),
  contentAs: fc.constantFrom('string' as const, 'blocks' as const),
  toolContentAs: fc.constantFrom('string' as const, 'blocks' as const),
  raw: fc.boolean(),
});
const textTurn = fc.record({ kind: fc.constant('text' as const), text: sentence(1, 40) });
const humanTurn = fc.record({ kind: fc.constant('human' as const), text: sentence(1, 20) });
const conversation = fc.record({
  system: fc.option(sentence(3, 30), { nil: undefined }),
  systemAs: fc.constantFrom('string' as const, 'blocks' as const),
  task: sentence(3, 20),
  turns: fc.array(fc.oneof({ weight: 5, arbitrary: toolTurn }, { weight: 2, arbitrary: textTurn }, { weight: 1, arbitrary: humanTurn }), {
    minLength: 4,
    maxLength: 30,
  }),
  last: fc.option(sentence(1, 20), { nil: undefined }),
  share: fc.double({ min: 0.1, max: 0.9, noNaN: true }),
});
type Conversation = typeof conversation extends fc.Arbitrary<infer T> ? T : never;

/** LangChain messages as agents hold them: ids, kwargs, metadata, blocks, raw OpenAI calls, statuses. */
function build(input: Conversation): { system: SystemMessage | undefined; messages: BaseMessage[] } {
  const system =
    input.system === undefined
      ? undefined
      : new SystemMessage({
          content: input.systemAs === 'string' ? input.system : [{ type: 'text', text: input.system, cache_control: { type: 'ephemeral' } }],
        });
  const messages: BaseMessage[] = [new HumanMessage({ id: 'task', content: input.task })];
  let call = 0;
  input.turns.forEach((turn, number) => {
    if (turn.kind === 'human') messages.push(new HumanMessage({ id: `human-${number}`, content: turn.text }));
    if (turn.kind === 'text') messages.push(new AIMessage({ id: `ai-${number}`, content: turn.text, response_metadata: { model_name: 'small' } }));
    if (turn.kind !== 'tools') return;
    const calls = Array.from({ length: turn.calls }, (_, index) => ({
      type: 'tool_call' as const,
      id: `call-${(call += 1)}`,
      name: 'read_file',
      args: { path: `src/file-${index}.ts` },
    }));
    const reasoningBlock = turn.reasoning !== undefined && turn.reasoningAs === 'block' ? [{ type: 'reasoning', reasoning: turn.reasoning }] : [];
    const content =
      turn.contentAs === 'string' ? (turn.text ?? '') : [...reasoningBlock, ...(turn.text !== undefined ? [{ type: 'text', text: turn.text }] : [])];
    messages.push(
      new AIMessage({
        id: `ai-${number}`,
        name: 'model',
        content: content as AIMessage['content'],
        tool_calls: calls,
        additional_kwargs: {
          ...(turn.reasoning !== undefined && (turn.reasoningAs === 'kwarg' || turn.contentAs === 'string') ? { reasoning_content: turn.reasoning } : {}),
          ...(turn.raw
            ? {
                tool_calls: calls.map((entry) => ({
                  id: entry.id,
                  type: 'function' as const,
                  function: { name: entry.name, arguments: JSON.stringify(entry.args) },
                })),
              }
            : {}),
        },
        response_metadata: { model_name: 'small', finish_reason: 'tool_calls' },
        usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
      }),
    );
    calls.forEach((entry, index) => {
      const output = turn.outputs[index]!;
      messages.push(
        new ToolMessage({
          id: `tool-${entry.id}`,
          name: 'read_file',
          tool_call_id: entry.id,
          content: turn.toolContentAs === 'string' ? output : [{ type: 'text', text: output }],
          status: turn.errors[index] ? 'error' : 'success',
          artifact: { bytes: output.length },
        }),
      );
    });
  });
  if (input.last !== undefined) messages.push(new HumanMessage({ id: 'last', content: input.last }));
  return { system, messages };
}

function countOf(sources: readonly BaseMessage[]): number {
  return tokens.countMessages(new MessageBridge().toOllm(sources).messages);
}

describe('the message bridge (LangChain <-> ollm)', () => {
  it('sends messages under the budget as the very objects the agent holds', async () => {
    await fc.assert(
      fc.asyncProperty(conversation, async (input) => {
        const { system, messages } = build(input);
        const { sent, request } = await sendThrough(contextMiddleware({ contextSize: 1_000_000, logdir: folder() }), messages, system);
        expect(sent.request).toBe(request);
        expect(sent.messages).toBe(messages);
        if (system) expect(sent.systemMessage).toBe(system);
      }),
      { numRuns: 40 },
    );
  });

  it('over the budget keeps the system message and the last human message word for word, and orphans no ToolMessage', async () => {
    let compacted = 0;
    await fc.assert(
      fc.asyncProperty(conversation, async (input) => {
        const { system, messages } = build(input);
        const sources = system ? [system, ...messages] : messages;
        const total = countOf(sources);
        const humans = messages.filter((message) => message.type === 'human');
        const pinned = countOf([...(system ? [system] : []), humans[0]!, humans.at(-1)!]);
        const budget = Math.max(Math.floor(total * input.share), pinned + 600);
        const contextSize = Math.ceil(budget / 0.85) + 1;
        const events: CompactionEvent[] = [];
        const { sent } = await sendThrough(contextMiddleware({ contextSize, logdir: folder(), onCompaction: (event) => events.push(event) }), messages, system);

        if (events.length > 0) {
          expect(events[0]!.tokensAfter).toBeLessThanOrEqual(contextSize - Math.floor(contextSize * 0.15));
          compacted += 1;
        } else {
          expect(sent.messages).toBe(messages);
        }
        if (system) expect(sent.systemMessage).toBe(system);
        expect(sent.messages).toContain(humans.at(-1));
        expect(sent.messages).toContain(humans[0]);
        expect(orphanProblems(sent.messages)).toEqual([]);
        // What ChatOpenAI would send is just as valid: no raw call left behind on a folded message.
        const wire = convertMessagesToCompletionsMessageParams({ messages: sent.messages, model: 'small' }) as {
          role: string;
          tool_calls?: { id: string }[];
          tool_call_id?: string;
        }[];
        for (const [position, entry] of wire.entries()) {
          if (entry.role !== 'tool') continue;
          let previous = position - 1;
          while (wire[previous]!.role === 'tool') previous -= 1;
          expect(wire[previous]!.tool_calls?.some((call) => call.id === entry.tool_call_id)).toBe(true);
        }
        // Every message kept keeps its id and class, in order; a message not changed is the same object.
        const byId = new Map(messages.map((message, index) => [message.id, { message, index }]));
        let previous = -1;
        for (const message of sent.messages) {
          const original = byId.get(message.id);
          if (!original) continue;
          expect(message.type).toBe(original.message.type);
          expect(original.index).toBeGreaterThan(previous);
          previous = original.index;
          if (message !== original.message) expect(message.response_metadata).toEqual(original.message.response_metadata);
        }
      }),
      { numRuns: 40 },
    );
    // Most generated conversations were over their budget.
    expect(compacted).toBeGreaterThan(20);
  });

  it('rebuilds a changed message with its id, kwargs and metadata, and drops only what no longer applies', async () => {
    // A stage that removes reasoning, shortens call arguments and cuts tool outputs, so each rebuild path runs.
    const edits: ContextProviderV2 = {
      specificationVersion: 'v2',
      name: 'test-edits',
      description: 'test stage',
      async compress({ messages }) {
        const edit = (message: Message): Message => {
          if (message.role === 'assistant') {
            return withParts(
              message,
              message.parts
                .filter((part) => part.type !== 'reasoning')
                .map((part) =>
                  part.type === 'tool-call' && part.callId === 'call-1' ? { ...part, input: { path: 'a.ts' }, rawInput: '{"path":"a.ts"}' } : part,
                ),
            );
          }
          if (message.role === 'tool')
            return withParts(
              message,
              message.parts.map((part) => (part.type === 'tool-result' ? { ...part, output: '[digest]' } : part)),
            );
          return message;
        };
        return { messages: messages.map(edit) };
      },
    };
    const cached = { type: 'text', text: 'Reading both files.', cache_control: { type: 'ephemeral' } };
    const calls = [
      { type: 'tool_call' as const, id: 'call-1', name: 'read_file', args: { path: 'src/a-very-long-path/that/is/long.ts' } },
      { type: 'tool_call' as const, id: 'call-2', name: 'read_file', args: { path: 'src/b.ts' } },
    ];
    const assistant = new AIMessage({
      id: 'ai-1',
      name: 'model',
      content: [{ type: 'reasoning', reasoning: 'I should read them.' }, cached] as AIMessage['content'],
      tool_calls: calls,
      additional_kwargs: {
        reasoning_content: 'Thinking about files.',
        custom: 'kept',
        tool_calls: calls.map((call) => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: JSON.stringify(call.args) } })),
      },
      response_metadata: { model_name: 'small', finish_reason: 'tool_calls' },
      usage_metadata: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
    });
    const long = 'line of a long file\n'.repeat(400);
    const results = calls.map(
      (call, index) =>
        new ToolMessage({
          id: `t-${index}`,
          name: 'read_file',
          tool_call_id: call.id,
          content: long,
          status: index === 0 ? 'error' : 'success',
          artifact: { index },
        }),
    );
    const task = new HumanMessage({ id: 'task', content: 'Compare a.ts and b.ts.' });
    const system = new SystemMessage('You compare files.');
    const messages = [task, assistant, ...results];
    const { sent } = await sendThrough(contextMiddleware({ contextSize: 4096, logdir: folder(), stages: [edits] }), messages, system);

    expect(sent.systemMessage).toBe(system);
    expect(sent.messages[0]).toBe(task);
    const rebuilt = sent.messages[1] as AIMessage;
    expect(rebuilt).toBeInstanceOf(AIMessage);
    expect(rebuilt).not.toBe(assistant);
    expect(rebuilt.id).toBe('ai-1');
    expect(rebuilt.name).toBe('model');
    expect(rebuilt.response_metadata).toEqual(assistant.response_metadata);
    expect(rebuilt.usage_metadata).toEqual(assistant.usage_metadata);
    // The kept text block is the very block, cache_control and all; the reasoning block and kwarg are gone.
    expect(rebuilt.content).toEqual([cached]);
    expect((rebuilt.content as unknown[])[0]).toBe(cached);
    expect(rebuilt.additional_kwargs['reasoning_content']).toBeUndefined();
    expect(rebuilt.additional_kwargs['custom']).toBe('kept');
    expect(rebuilt.tool_calls).toEqual([{ ...calls[0], args: { path: 'a.ts' } }, calls[1]]);
    expect(rebuilt.tool_calls![1]).toBe(calls[1]);
    expect(rebuilt.additional_kwargs['tool_calls']).toEqual([
      { id: 'call-1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } },
      assistant.additional_kwargs['tool_calls']![1],
    ]);
    const tools = sent.messages.slice(2) as ToolMessage[];
    expect(tools.map((tool) => [tool.id, tool.tool_call_id, tool.name, tool.status, tool.content, tool.artifact])).toEqual([
      ['t-0', 'call-1', 'read_file', 'error', '[digest]', { index: 0 }],
      ['t-1', 'call-2', 'read_file', 'success', '[digest]', { index: 1 }],
    ]);
  });

  it('turns a turn folded to a digest into a text AIMessage with no call, raw call or tool_use block left', async () => {
    // A stage that folds the first turn (an Anthropic-style message with tool_use blocks) to one line, as fold's level 4 does.
    const digest: ContextProviderV2 = {
      specificationVersion: 'v2',
      name: 'test-digest',
      description: 'test stage',
      async compress({ messages }) {
        const first = messages.findIndex((message) => message.role === 'assistant');
        const calls = new Set(messages[first]!.parts.flatMap((part) => (part.type === 'tool-call' ? [part.callId] : [])));
        return {
          messages: messages.flatMap((message, index): Message[] => {
            if (index === first) return [withParts(message, [{ type: 'text', text: '[ollm fold 0123456789ab] 1 earlier step folded' }])];
            if (message.role === 'tool' && message.parts.some((part) => part.type === 'tool-result' && calls.has(part.callId))) return [];
            return [message];
          }),
        };
      },
    };
    const call = { type: 'tool_call' as const, id: 'toolu_1', name: 'read_file', args: { path: 'src/a.ts' } };
    const folded = new AIMessage({
      id: 'ai-1',
      content: [
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: call.args },
      ] as AIMessage['content'],
      tool_calls: [call],
      additional_kwargs: { tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/a.ts"}' } }] },
    });
    const answer = new ToolMessage({ id: 't-1', tool_call_id: 'toolu_1', content: 'x\n'.repeat(3000) });
    const later = new AIMessage({ id: 'ai-2', content: 'a.ts exports parse_limit.' });
    const task = new HumanMessage('What does a.ts export?');
    const next = new HumanMessage('And b.ts?');
    const { sent } = await sendThrough(
      contextMiddleware({ contextSize: 2048, logdir: folder(), stages: [digest] }),
      [task, folded, answer, later, next],
      undefined,
    );

    expect(sent.messages).toHaveLength(4);
    const [first, rebuilt, kept, last] = sent.messages as [BaseMessage, AIMessage, BaseMessage, BaseMessage];
    expect(first).toBe(task);
    expect(kept).toBe(later);
    expect(last).toBe(next);
    expect(rebuilt.id).toBe('ai-1');
    expect(rebuilt.tool_calls).toEqual([]);
    expect(rebuilt.additional_kwargs['tool_calls']).toBeUndefined();
    expect(rebuilt.content).toEqual([{ type: 'text', text: '[ollm fold 0123456789ab] 1 earlier step folded' }]);
    const wire = convertMessagesToCompletionsMessageParams({ messages: sent.messages, model: 'small' }) as { tool_calls?: unknown }[];
    expect(wire.every((entry) => entry.tool_calls === undefined)).toBe(true);
  });

  it('gives back the same rebuilt objects at the next step, while the compaction is reused', async () => {
    const events: CompactionEvent[] = [];
    const middleware = contextMiddleware({ contextSize: 4096, logdir: folder(), onCompaction: (event) => events.push(event) });
    const messages: BaseMessage[] = [new HumanMessage('Read the files.')];
    for (let step = 0; step < 20; step += 1) {
      const id = `call-${step}`;
      messages.push(new AIMessage({ content: '', tool_calls: [{ type: 'tool_call', id, name: 'read_file', args: { path: `src/f${step}.ts` } }] }));
      messages.push(new ToolMessage({ tool_call_id: id, content: `export const value_${step} = ${step};\n`.repeat(30) }));
    }
    const first = (await sendThrough(middleware, messages, undefined)).sent.messages;
    const second = (await sendThrough(middleware, [...messages], undefined)).sent.messages;
    expect(events.map((event) => event.action)).toEqual(['compacted', 'reused']);
    expect(second).toHaveLength(first.length);
    second.forEach((message, index) => expect(message).toBe(first[index]));
    expect(first.some((message, index) => message !== messages[index])).toBe(true);
  });
});
