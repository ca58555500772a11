import { readFileSync } from 'node:fs';
import { type Message, withParts } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { parseTranscript } from './parse-transcript.js';
import { serializeTranscript } from './serialize-transcript.js';
import { fixture } from './test-support/fixture-paths.js';
import type { Transcript } from './transcript.js';
import { withConversationMessages } from './with-conversation-messages.js';

function load(path: string): Transcript {
  return parseTranscript(readFileSync(fixture(path), 'utf8'), { file: path });
}

/** Replaces the output of every tool result in `message`, as a masking provider would. */
function masked(message: Message, output: string): Message {
  return withParts(
    message,
    message.parts.map((part) => (part.type === 'tool-result' ? { ...part, output } : part)),
  );
}

// Metadata a provider sets on a new message (goal-aware keeps its checkpoint there) is not a source field.
const summary: Message = {
  id: 'summary-1',
  role: 'assistant',
  parts: [{ type: 'text', text: 'Summary of earlier turns.' }],
  metadata: { checkpoint: { id: 'checkpoint-1' } },
};

describe('writing after compaction', () => {
  it('SWE-agent: masked outputs are written from the parts, `extra` and the exit message survive', () => {
    const transcript = load('swe-agent-django/django__django-14915.traj.json');
    const messages = transcript.conversations[0]!.messages;
    const toolIndex = messages.findIndex((message) => message.role === 'tool');
    const edited = messages.map((message, index) => (index === toolIndex ? masked(message, '[output saved to removed/abc]') : message));
    const written = JSON.parse(serializeTranscript(withConversationMessages(transcript, 0, edited))) as {
      messages: Record<string, unknown>[];
      info: unknown;
    };
    const source = JSON.parse(readFileSync(fixture('swe-agent-django/django__django-14915.traj.json'), 'utf8')) as typeof written;
    expect(written.messages[toolIndex]).toEqual({ ...source.messages[toolIndex], content: '[output saved to removed/abc]' });
    expect(written.messages.at(-1)).toEqual(source.messages.at(-1));
    expect(written.messages.at(-1)!.role).toBe('exit');
    expect(written.info).toEqual(source.info);
  });

  it('SWE-agent: the exit message is a pinned assistant message with its source role kept', () => {
    const exit = load('swe-agent-django/django__django-11848.traj.json').conversations[0]!.messages.at(-1)!;
    expect(exit.role).toBe('assistant');
    expect(exit.pinned).toBe(true);
    expect(exit.metadata?.sourceRole).toBe('exit');
    expect(exit.metadata?.extra).toMatchObject({ exit_status: 'Submitted' });
  });

  it('OpenAI: removed messages disappear, new ones are written plainly, kept ones keep their fields', () => {
    const transcript = load('formats/openai.json');
    const messages = transcript.conversations[0]!.messages;
    const compacted = [messages[0]!, messages[1]!, summary, ...messages.slice(6)];
    const written = JSON.parse(serializeTranscript(withConversationMessages(transcript, 0, compacted))) as Record<string, unknown>[];
    const source = JSON.parse(readFileSync(fixture('formats/openai.json'), 'utf8')) as Record<string, unknown>[];
    expect(written).toEqual([source[0], source[1], { role: 'assistant', content: 'Summary of earlier turns.' }, ...source.slice(6)]);
  });

  it('OpenAI: an edited tool call keeps rawInput exactly, and an emptied assistant turn writes content null', () => {
    const transcript = load('formats/openai.json');
    const messages = transcript.conversations[0]!.messages;
    const stripped = withParts(
      messages[2]!,
      messages[2]!.parts.filter((part) => part.type !== 'reasoning'),
    );
    const written = JSON.parse(
      serializeTranscript(
        withConversationMessages(
          transcript,
          0,
          messages.map((message, index) => (index === 2 ? stripped : message)),
        ),
      ),
    ) as Record<string, unknown>[];
    expect(written[2]).not.toHaveProperty('reasoning_content');
    expect(written[2]!.content).toBeNull();
    expect((written[2]!.tool_calls as { function: { arguments: string } }[])[1]!.function.arguments).toBe('{"city":"Lyon", "unit":"c"}');
  });

  it('OpenAI: a tool-calling turn written without content gets `""` once its calls are gone, so the file still reads', () => {
    const document = [
      { role: 'user', content: 'Time?' },
      { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'clock', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '12:00' },
      { role: 'assistant', content: 'Noon.' },
    ];
    const transcript = parseTranscript(JSON.stringify(document), { file: 'calls.json' });
    const messages = transcript.conversations[0]!.messages;
    // Kept as it was while it still calls tools...
    expect((JSON.parse(serializeTranscript(transcript)) as unknown[])[1]).toEqual(document[1]);
    // ...and with its calls (and their result) dropped, written with empty content.
    const dropped = withParts(messages[1]!, []);
    const written = serializeTranscript(withConversationMessages(transcript, 0, [messages[0]!, dropped, messages[3]!]));
    expect((JSON.parse(written) as unknown[])[1]).toEqual({ role: 'assistant', content: '' });
    expect(parseTranscript(written, { file: 'calls.json' }).conversations[0]!.messages).toHaveLength(3);
  });

  it('Anthropic: split tool results merge back into one user turn, edits included', () => {
    const transcript = load('formats/anthropic.json');
    const messages = transcript.conversations[0]!.messages;
    const edited = messages.map((message) => (message.id === 'm2.1' ? masked(message, '[masked]') : message));
    const written = JSON.parse(serializeTranscript(withConversationMessages(transcript, 0, edited))) as { messages: { content: unknown }[] };
    const source = JSON.parse(readFileSync(fixture('formats/anthropic.json'), 'utf8')) as typeof written;
    expect(written.messages).toHaveLength(source.messages.length);
    expect(written.messages[2]!.content).toEqual([
      (source.messages[2]!.content as unknown[])[0],
      { type: 'tool_result', tool_use_id: 'toolu_02', content: '[masked]' },
      (source.messages[2]!.content as unknown[])[2],
    ]);
  });

  it('Anthropic: a dropped thinking block goes, a kept one keeps its signature, new messages are plain', () => {
    const transcript = load('formats/anthropic.json');
    const messages = transcript.conversations[0]!.messages;
    const withoutRedacted = messages.map((message) =>
      message.id === 'm3'
        ? withParts(
            message,
            message.parts.filter((part) => part.type !== 'reasoning'),
          )
        : message,
    );
    const compacted = [...withoutRedacted.slice(0, 2), summary, ...withoutRedacted.slice(2)];
    const written = JSON.parse(serializeTranscript(withConversationMessages(transcript, 0, compacted))) as { messages: { role: string; content: unknown }[] };
    // The top-level system prompt is not in `messages`: m0, summary, m1, m2, m3, ...
    expect(written.messages[2]!.content).toContainEqual(expect.objectContaining({ type: 'thinking', signature: expect.any(String) }));
    expect(written.messages[1]).toEqual({ role: 'assistant', content: 'Summary of earlier turns.' });
    expect(JSON.stringify(written.messages[4])).not.toContain('redacted_thinking');
  });

  it('Ollama: derived call ids are stable, and results are written back without ids', () => {
    const first = load('formats/ollama.json');
    const again = load('formats/ollama.json');
    expect(first.conversations[0]!.messages).toEqual(again.conversations[0]!.messages);
    const messages = first.conversations[0]!.messages;
    const edited = messages.map((message) => (message.id === 'm3' ? masked(message, '21:04') : message));
    const written = JSON.parse(serializeTranscript(withConversationMessages(first, 0, edited))) as { messages: Record<string, unknown>[] };
    expect(written.messages[3]).toEqual({ role: 'tool', content: '21:04', tool_name: 'get_time' });
    expect(JSON.stringify(written.messages[2])).not.toContain('ollama-2-0');
  });

  it('gptme: tool output goes back as system, a new message borrows the previous timestamp', () => {
    const transcript = load('formats/gptme/conversation.jsonl');
    const messages = transcript.conversations[0]!.messages;
    const compacted = [...messages.slice(0, 4), summary, ...messages.slice(6)];
    const lines = serializeTranscript(withConversationMessages(transcript, 0, compacted))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[3]!.role).toBe('system');
    expect(lines[4]).toEqual({ role: 'assistant', content: 'Summary of earlier turns.', timestamp: messages[3]!.timestamp });
    expect(lines).toHaveLength(compacted.length);
  });

  it('tau-bench: only the replaced conversation changes; reward and info stay', () => {
    const transcript = load('tau-bench-airline/gpt-4o-airline.sample.json');
    expect(transcript.conversations.map((conversation) => conversation.id).slice(0, 2)).toEqual(['task-0-trial-0', 'task-1-trial-0']);
    const messages = transcript.conversations[3]!.messages;
    const written = JSON.parse(serializeTranscript(withConversationMessages(transcript, 3, [messages[0]!, summary, ...messages.slice(1)]))) as {
      traj: unknown[];
      reward: number;
      info: unknown;
    }[];
    const source = JSON.parse(readFileSync(fixture('tau-bench-airline/gpt-4o-airline.sample.json'), 'utf8')) as typeof written;
    expect(written[3]!.traj).toEqual([source[3]!.traj[0], { role: 'assistant', content: 'Summary of earlier turns.' }, ...source[3]!.traj.slice(1)]);
    expect({ ...written[3], traj: [] }).toEqual({ ...source[3], traj: [] });
    expect(written.filter((_, index) => index !== 3)).toEqual(source.filter((_, index) => index !== 3));
  });

  it('rejects a conversation index that does not exist', () => {
    const transcript = load('formats/openai.json');
    expect(() => withConversationMessages(transcript, 1, [])).toThrow(/conversation 1 does not exist/);
  });
});
