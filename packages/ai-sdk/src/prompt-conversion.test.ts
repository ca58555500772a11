import { withParts, type Message } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { messagesToPrompt, promptProblems, promptToMessages, rewrittenToolOutput, toolOutputText, type Prompt, type PromptToolOutput } from './index.js';

const options = { test: { cache: 'yes' } };

const prompt: Prompt = [
  { role: 'system', content: 'Be brief.', providerOptions: options },
  { role: 'user', content: [{ type: 'text', text: 'Find the bug.' }] },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'Look at the parser first.' },
      { type: 'text', text: 'Reading two files.', providerOptions: options },
      { type: 'tool-call', toolCallId: 'a', toolName: 'read_file', input: { path: 'a.ts' }, providerOptions: options },
      { type: 'tool-call', toolCallId: 'b', toolName: 'grep', input: { pattern: 'parse' } },
    ],
    providerOptions: options,
  },
  {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 'a', toolName: 'read_file', output: { type: 'json', value: { lines: 3 } }, providerOptions: options },
      { type: 'tool-result', toolCallId: 'b', toolName: 'grep', output: { type: 'error-text', value: 'no match' } },
    ],
    providerOptions: options,
  },
  {
    role: 'assistant',
    content: [
      { type: 'tool-call', toolCallId: 'w', toolName: 'web_search', input: { query: 'parser' }, providerExecuted: true },
      { type: 'tool-result', toolCallId: 'w', toolName: 'web_search', output: { type: 'text', value: 'three results' } },
      { type: 'text', text: 'Found it.' },
    ],
  },
  { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'p1', approved: true }] },
];

describe('promptToMessages', () => {
  it('reads one ollm message per prompt message, a tool message with several results as one per result', () => {
    const { messages, ids } = promptToMessages(prompt);
    expect(messages.map((message) => message.id)).toEqual(['m0', 'm1', 'm2', 'm3.0', 'm3.1', 'm4', 'm5']);
    expect(ids[3]).toEqual(['m3.0', 'm3.1']);
    expect(messages[2]!.parts).toEqual([
      { type: 'reasoning', text: 'Look at the parser first.' },
      { type: 'text', text: 'Reading two files.' },
      { type: 'tool-call', callId: 'a', name: 'read_file', input: { path: 'a.ts' } },
      { type: 'tool-call', callId: 'b', name: 'grep', input: { pattern: 'parse' } },
    ]);
    expect(messages[3]!.parts).toEqual([{ type: 'tool-result', callId: 'a', name: 'read_file', output: '{"lines":3}' }]);
    expect(messages[4]!.parts).toEqual([{ type: 'tool-result', callId: 'b', name: 'grep', output: 'no match', isError: true }]);
  });

  it('pins a message holding what ollm has no part for, rendered as text so it counts', () => {
    const { messages } = promptToMessages(prompt);
    expect(messages[5]).toEqual({
      id: 'm4',
      role: 'assistant',
      pinned: true,
      parts: [
        { type: 'text', text: '[provider tool call web_search] {"query":"parser"}' },
        { type: 'text', text: '[provider tool result web_search] three results' },
        { type: 'text', text: 'Found it.' },
      ],
    });
    expect(messages[6]).toEqual({ id: 'm5', role: 'tool', pinned: true, parts: [{ type: 'text', text: '[tool approval p1: approved]' }] });
  });

  it('keys each message by its JSON, provider options included, bytes by their digest', () => {
    const bytes = new Uint8Array(1 << 16).fill(7);
    const withFile: Prompt = [{ role: 'user', content: [{ type: 'file', mediaType: 'image/png', data: bytes }] }];
    const [key] = promptToMessages(withFile).sourceKeys;
    expect(key!.length).toBeLessThan(300);
    expect(key).toMatch(/"data":\{"bytes":"[0-9a-f]{64}"\}/);
    expect(promptToMessages(prompt).sourceKeys[0]).toBe(JSON.stringify(prompt[0]));
    expect(promptToMessages([{ ...prompt[0]!, providerOptions: { test: { cache: 'no' } } }]).sourceKeys[0]).not.toBe(promptToMessages(prompt).sourceKeys[0]);
  });
});

describe('messagesToPrompt', () => {
  it('rebuilds a changed message around its original: untouched parts the same objects, changed ones keeping their options and names', () => {
    const conversion = promptToMessages(prompt);
    const folded: Message[] = conversion.messages.map((message) => {
      if (message.id === 'm2') return withParts(message, message.parts.slice(1)); // reasoning removed
      if (message.id === 'm3.0')
        return withParts(message, [{ type: 'tool-result', callId: 'a', name: 'read_file', output: '[ollm fold 0123456789ab] 3 lines' }]);
      return message;
    });
    const back = messagesToPrompt(folded, conversion);
    expect(back).toHaveLength(prompt.length);
    for (const index of [0, 1, 4, 5]) expect(back[index]).toBe(prompt[index]);
    const assistant = back[2] as Extract<Prompt[number], { role: 'assistant' }>;
    const originalAssistant = prompt[2] as typeof assistant;
    expect(assistant.providerOptions).toBe(options);
    expect(assistant.content).toHaveLength(3);
    assistant.content.forEach((part, index) => expect(part).toBe(originalAssistant.content[index + 1]));
    const tool = back[3] as Extract<Prompt[number], { role: 'tool' }>;
    const originalTool = prompt[3] as typeof tool;
    expect(tool.providerOptions).toBe(options);
    expect(tool.content[1]).toBe(originalTool.content[1]);
    expect(tool.content[0]).toEqual({
      type: 'tool-result',
      toolCallId: 'a',
      toolName: 'read_file',
      output: { type: 'text', value: '[ollm fold 0123456789ab] 3 lines' },
      providerOptions: options,
    });
  });

  it('turns a digest standing for dropped turns into a text message keeping the first one’s options, and a written note into a plain message', () => {
    const conversion = promptToMessages(prompt);
    const digest = withParts(conversion.messages[2]!, [{ type: 'text', text: '[ollm fold 0123456789ab] 1 earlier step folded' }]);
    const note: Message = { id: 'window-guard-note-1', role: 'assistant', parts: [{ type: 'text', text: '[ollm window-guard] 2 messages dropped' }] };
    const back = messagesToPrompt(
      [conversion.messages[0]!, conversion.messages[1]!, digest, note, conversion.messages[5]!, conversion.messages[6]!],
      conversion,
    );
    expect(back[2]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: '[ollm fold 0123456789ab] 1 earlier step folded', providerOptions: options }],
      providerOptions: options,
    });
    expect(back[3]).toEqual({ role: 'assistant', content: [{ type: 'text', text: '[ollm window-guard] 2 messages dropped' }] });
    expect(back[4]).toBe(prompt[4]);
    expect(back[5]).toBe(prompt[5]);
    expect(promptProblems(back)).toEqual([]);
  });

  it('gives back a compaction cached from an earlier step as this step’s objects where it left them as they were', () => {
    const earlier = promptToMessages(prompt);
    const now = promptToMessages(structuredClone(prompt.slice(0, 4)).concat(prompt.slice(4)) as Prompt);
    const back = messagesToPrompt(earlier.messages, now);
    back.forEach((message, index) => expect(message).toBe(now.prompt[index]));
  });
});

describe('tool outputs', () => {
  const cases: [PromptToolOutput, string, boolean][] = [
    [{ type: 'text', value: 'ok' }, 'ok', false],
    [{ type: 'error-text', value: 'bad' }, 'bad', true],
    [{ type: 'json', value: { a: [1, 'x'] } }, '{"a":[1,"x"]}', false],
    [{ type: 'error-json', value: null }, 'null', true],
    [{ type: 'execution-denied' }, 'Tool call execution denied.', true],
    [{ type: 'execution-denied', reason: 'not allowed' }, 'not allowed', true],
    [
      {
        type: 'content',
        value: [
          { type: 'text', text: 'chart:' },
          { type: 'image-data', data: 'AQID', mediaType: 'image/png' },
          { type: 'file-url', url: 'https://example.com/a.pdf' },
        ],
      },
      'chart:\n[image/png]\n[file-url]',
      false,
    ],
  ];
  it.each(cases)('reads %j as the text providers send', (output, text, isError) => {
    expect(toolOutputText(output)).toEqual({ text, isError });
  });

  it('keeps an output’s kind where the new text fits it, and its provider options', () => {
    expect(rewrittenToolOutput({ type: 'json', value: { a: 1 }, providerOptions: options }, '{"a":2}')).toEqual({
      type: 'json',
      value: { a: 2 },
      providerOptions: options,
    });
    expect(rewrittenToolOutput({ type: 'json', value: { a: 1 }, providerOptions: options }, '[ollm fold 0123456789ab] facts: a 1')).toEqual({
      type: 'text',
      value: '[ollm fold 0123456789ab] facts: a 1',
      providerOptions: options,
    });
    expect(rewrittenToolOutput({ type: 'error-json', value: { e: 1 } }, 'folded')).toEqual({ type: 'error-text', value: 'folded' });
    expect(rewrittenToolOutput({ type: 'error-text', value: 'long' }, 'short')).toEqual({ type: 'error-text', value: 'short' });
    expect(rewrittenToolOutput({ type: 'execution-denied', reason: 'long' }, 'short')).toEqual({ type: 'execution-denied', reason: 'short' });
    expect(
      rewrittenToolOutput(
        {
          type: 'content',
          value: [
            { type: 'text', text: 'long' },
            { type: 'image-url', url: 'https://example.com/a.png' },
          ],
        },
        'short',
      ),
    ).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'short' },
        { type: 'image-url', url: 'https://example.com/a.png' },
      ],
    });
  });
});

describe('promptProblems', () => {
  it('names a call without its result, a result without its call and an empty message', () => {
    expect(promptProblems(prompt)).toEqual([]);
    expect(
      promptProblems([
        { role: 'user', content: [] },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'x', toolName: 't', input: {} }] },
        { role: 'user', content: [{ type: 'text', text: 'and?' }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'y', toolName: 't', output: { type: 'text', value: '' } }] },
      ]),
    ).toEqual([
      'message 0 (user) is empty',
      'the tool call x has no result before message 2',
      'the tool result y (message 3) answers no call of the assistant message before it',
    ]);
  });
});
