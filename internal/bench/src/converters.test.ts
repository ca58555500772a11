import { pruneMessages } from 'ai';
import { canonicalMessage, findToolPairingProblem, type Message } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { fromLangChainMessages, toLangChainMessages } from './langchain-messages.js';
import { fromModelMessages, toModelMessages } from './model-messages.js';
import { indexById } from './original-fields.js';
import { repositoryConversation } from './test-fixtures.js';

const canonical = (messages: readonly Message[]) => messages.map(canonicalMessage);

/** Reasoning, an error result, a parallel call answered in one tool message, a name. */
const synthetic: Message[] = [
  { id: 's', role: 'system', parts: [{ type: 'text', text: 'You are terse.' }] },
  { id: 'u', role: 'user', name: 'ana', parts: [{ type: 'text', text: 'Look at both files.' }] },
  {
    id: 'a1',
    role: 'assistant',
    parts: [
      { type: 'reasoning', text: 'Two reads at once.' },
      { type: 'text', text: 'Reading.' },
      { type: 'tool-call', callId: 'c1', name: 'read', input: { path: 'a.py' }, rawInput: '{"path": "a.py"}' },
      { type: 'tool-call', callId: 'c2', name: 'read', input: { path: 'b.py' }, rawInput: '{"path": "b.py"}' },
    ],
  },
  {
    id: 't1',
    role: 'tool',
    parts: [
      { type: 'tool-result', callId: 'c1', name: 'read', output: 'print(1)' },
      { type: 'tool-result', callId: 'c2', name: 'read', output: 'No such file', isError: true },
    ],
  },
  { id: 'a2', role: 'assistant', parts: [{ type: 'text', text: 'b.py is missing.' }] },
];

describe('converters keep messages and tool pairing', () => {
  it('our messages -> LangChain -> back are unchanged (real SWE-agent, real tau-bench, synthetic)', async () => {
    for (const messages of [
      (await repositoryConversation('django__django-11999')).messages,
      (await repositoryConversation('task-0-trial-0')).messages,
      synthetic,
    ]) {
      const converted = toLangChainMessages(messages);
      const back = fromLangChainMessages(converted, indexById(messages));
      expect(canonical(back)).toEqual(canonical(messages));
      expect(back.map((message) => message.id)).toEqual(messages.map((message) => message.id));
      expect(findToolPairingProblem(messages, back)).toBeUndefined();
    }
  });

  it('represents tool calls the LangChain way: AIMessage.tool_calls and one ToolMessage per result', () => {
    const converted = toLangChainMessages(synthetic);
    expect(converted.map((message) => message.getType())).toEqual(['system', 'human', 'ai', 'tool', 'tool', 'ai']);
    const ai = converted[2] as unknown as { tool_calls: { id: string; name: string; args: unknown }[] };
    expect(ai.tool_calls.map((call) => [call.id, call.args])).toEqual([
      ['c1', { path: 'a.py' }],
      ['c2', { path: 'b.py' }],
    ]);
    expect((converted[4] as unknown as { status?: string }).status).toBe('error');
  });

  it('our messages -> AI SDK ModelMessage -> back are unchanged', async () => {
    for (const messages of [(await repositoryConversation('django__django-11999')).messages, synthetic]) {
      const back = fromModelMessages(toModelMessages(messages), indexById(messages));
      expect(canonical(back)).toEqual(canonical(messages));
      expect(findToolPairingProblem(messages, back)).toBeUndefined();
    }
  });

  it('pruneMessages output converted back keeps pairing: calls and results go together', async () => {
    const messages = (await repositoryConversation('django__django-11999')).messages;
    const pruned = pruneMessages({ messages: toModelMessages(messages), reasoning: 'all', toolCalls: 'before-last-message', emptyMessages: 'remove' });
    const back = fromModelMessages(pruned, indexById(messages));
    expect(back.length).toBeLessThan(messages.length);
    expect(back.some((message) => message.role === 'tool')).toBe(false);
    expect(findToolPairingProblem(messages, back)).toBeUndefined();
    // The exit message keeps its metadata, so retention can still leave it out.
    expect(back[back.length - 1]!.metadata?.['sourceRole']).toBe('exit');
  });
});
