import { readFileSync } from 'node:fs';
import { InvalidTranscriptError, withParts, type Message } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { detectFormat } from './detect-format.js';
import { parseTranscript } from './parse-transcript.js';
import { readTranscript } from './read-transcript.js';
import { serializeTranscript } from './serialize-transcript.js';
import { fixture, packageFixture } from './test-support/fixture-paths.js';
import { withConversationMessages } from './with-conversation-messages.js';

const FIXTURE = packageFixture('swe-agent-classic', 'calc__mean-empty.traj');

interface ClassicFile {
  trajectory: unknown[];
  history: Record<string, unknown>[];
  info: unknown;
  [key: string]: unknown;
}

const source = (): ClassicFile => JSON.parse(readFileSync(FIXTURE, 'utf8')) as ClassicFile;

function errorOf(run: () => unknown): InvalidTranscriptError {
  try {
    run();
  } catch (error) {
    if (InvalidTranscriptError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InvalidTranscriptError');
}

describe('classic SWE-agent trajectories (swe-agent-classic)', () => {
  it('reads and writes the sample back byte for byte (Python indent, \\u escapes, no final newline)', async () => {
    const transcript = await readTranscript(FIXTURE);
    expect(transcript.format).toBe('swe-agent-classic');
    expect(serializeTranscript(transcript)).toBe(readFileSync(FIXTURE, 'utf8'));
  });

  it('reads `history` as the conversation: SWE-agent fields in metadata, tool_call_ids answer their call', async () => {
    const transcript = await readTranscript(FIXTURE);
    const [conversation] = transcript.conversations;
    expect(conversation!.id).toBe('calc__mean-empty');
    const messages = conversation!.messages;
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'user', ...Array(4).fill(['assistant', 'tool']).flat()]);
    expect(messages[1]!.metadata).toEqual({ agent: 'main', is_demo: true, message_type: 'demonstration' });
    expect(messages[3]!.parts).toEqual([
      { type: 'text', text: 'Let me look at the function first.' },
      { type: 'tool-call', callId: 'call_01', name: 'bash', input: { command: 'cat /calc/stats.py' }, rawInput: '{"command": "cat /calc/stats.py"}' },
    ]);
    expect(messages[3]!.metadata).toMatchObject({ thought: 'Let me look at the function first.', action: 'cat /calc/stats.py', message_type: 'action' });
    expect(messages[4]!.parts).toEqual([
      { type: 'tool-result', callId: 'call_01', output: 'OBSERVATION:\ndef mean(values):\n    return sum(values) / len(values)\n' },
    ]);
    expect(messages.at(-1)!.parts[0]).toMatchObject({ type: 'tool-result', callId: 'call_04', output: expect.stringContaining('raise ValueError') });
  });

  it('after compaction only `history` changes: trajectory, info, replay_config and environment stay', async () => {
    const transcript = await readTranscript(FIXTURE);
    const messages = transcript.conversations[0]!.messages;
    const masked = (message: Message): Message =>
      withParts(
        message,
        message.parts.map((part) => (part.type === 'tool-result' ? { ...part, output: '[output saved to removed/1]' } : part)),
      );
    const summary: Message = { id: 'summary-1', role: 'assistant', parts: [{ type: 'text', text: 'Summary of earlier turns.' }] };
    const compacted = [messages[0]!, messages[2]!, summary, messages[5]!, masked(messages[6]!), ...messages.slice(7)];
    const text = serializeTranscript(withConversationMessages(transcript, 0, compacted));
    const written = JSON.parse(text) as ClassicFile;
    const original = source();
    expect(Object.keys(written)).toEqual(Object.keys(original));
    expect({ ...written, history: [] }).toEqual({ ...original, history: [] });
    expect(written.history).toEqual([
      original.history[0],
      original.history[2],
      { role: 'assistant', content: 'Summary of earlier turns.' },
      original.history[5],
      { ...original.history[6], content: '[output saved to removed/1]' },
      ...original.history.slice(7),
    ]);
    // The id list stays a list, in its place.
    expect(Object.keys(written.history[4]!)).toEqual(Object.keys(original.history[6]!));
    expect(text.startsWith('{\n  "trajectory": [')).toBe(true);
    // The written file reads back as the same format.
    expect(parseTranscript(text, { file: 'out.traj' }).format).toBe('swe-agent-classic');
  });

  it('a new tool message follows the file: tool_call_ids in a 1.x file', async () => {
    const transcript = await readTranscript(FIXTURE);
    const messages = transcript.conversations[0]!.messages;
    const result: Message = { id: 'new-result', role: 'tool', parts: [{ type: 'tool-result', callId: 'call_01', output: 'short' }] };
    const written = JSON.parse(
      serializeTranscript(withConversationMessages(transcript, 0, [...messages.slice(0, 4), result, ...messages.slice(5)])),
    ) as ClassicFile;
    expect(written.history[4]).toEqual({ role: 'tool', tool_call_ids: ['call_01'], content: 'short' });
  });

  it('reads the SWE-agent 0.x layout (no tool calls, `state` a string) and a `tool_call_id` tool message', () => {
    const document = {
      environment: 'swe_main',
      trajectory: [
        {
          action: 'ls\n',
          observation: 'a.py\n',
          response: 'DISCUSSION\nList first.\n```\nls\n```',
          state: '{"open_file": "n/a", "working_dir": "/repo"}',
          thought: 'List first.',
        },
      ],
      history: [
        { role: 'system', content: 'SETTING: ...', agent: 'primary' },
        { role: 'user', content: 'We have an issue.', agent: 'primary' },
        { role: 'assistant', content: 'DISCUSSION\nList first.\n```\nls\n```', thought: 'List first.', action: 'ls\n', agent: 'primary' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }],
          agent: 'primary',
        },
        { role: 'tool', tool_call_id: 'c1', content: 'a.py\n', agent: 'primary' },
      ],
      info: {
        exit_status: 'submitted',
        submission: 'diff --git a/a.py b/a.py\n',
        model_stats: { total_cost: 0.5, instance_cost: 0.25, tokens_sent: 900, tokens_received: 40, api_calls: 2 },
      },
    };
    const text = JSON.stringify(document, null, 2);
    expect(detectFormat(text, 'old.traj')).toBe('swe-agent-classic');
    const transcript = parseTranscript(text, { file: 'old.traj' });
    expect(transcript.conversations[0]!.id).toBe('trajectory');
    expect(transcript.conversations[0]!.messages[4]!.parts).toEqual([{ type: 'tool-result', callId: 'c1', output: 'a.py\n' }]);
    expect(serializeTranscript(transcript)).toBe(text);
  });

  it('is not confused with mini-swe-agent: `messages` means mini-swe-agent, `history` + `trajectory` means classic', () => {
    expect(detectFormat(readFileSync(fixture('swe-agent-django', 'django__django-14915.traj.json'), 'utf8'), 'mini.traj.json')).toBe('swe-agent');
    const both = { history: [], trajectory: [], messages: [{ role: 'user', content: 'hi' }], trajectory_format: 'mini-swe-agent-1.1' };
    expect(detectFormat(JSON.stringify(both), 'both.json')).toBe('swe-agent');
    expect(detectFormat(JSON.stringify({ history: [{ role: 'user', content: 'hi' }], trajectory: [], info: {} }), 'classic.traj')).toBe('swe-agent-classic');
    // `history` alone (no trajectory) is not a trajectory.
    expect(() => detectFormat(JSON.stringify({ history: [{ role: 'user', content: 'hi' }] }), 'history.json')).toThrow(/unknown transcript format/);
  });

  it.each([
    ['an unknown role', [{ role: 'robot', content: 'x' }], 'history, message 0', /^unknown role "robot"/],
    [
      'two ids in tool_call_ids',
      [
        { role: 'assistant', content: '', tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', content: 'x', tool_call_ids: ['a', 'b'] },
      ],
      'history, message 1',
      /^tool_call_id of a tool message must be a string, got nothing$/,
    ],
    [
      'a tool message without its call',
      [{ role: 'tool', content: 'x', tool_call_ids: ['ghost'] }],
      'history, message 0',
      /^tool result for call "ghost" has no earlier tool call$/,
    ],
  ] as const)('rejects a history with %s', (_label, history, position, reason) => {
    const error = errorOf(() => parseTranscript(JSON.stringify({ trajectory: [], history, info: {} }), { file: 'bad.traj' }));
    expect(error.file).toBe('bad.traj');
    expect(error.position).toBe(position);
    expect(error.reason).toMatch(reason);
  });
});
