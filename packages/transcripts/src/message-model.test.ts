import { findToolPairingProblem, MESSAGE_ROLES } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { parseTranscript } from './parse-transcript.js';
import { readTranscript } from './read-transcript.js';
import { serializeTranscript } from './serialize-transcript.js';
import { filesIn, fixture, packageFixture } from './test-support/fixture-paths.js';

const files = [
  ...filesIn(fixture('swe-agent-django'), '.traj.json'),
  fixture('tau-bench-airline', 'gpt-4o-airline.sample.json'),
  ...['openai.json', 'openai-wrapped.json', 'anthropic.json', 'ollama.json', 'gptme/conversation.jsonl'].map((name) => fixture('formats', name)),
  packageFixture('swe-agent-classic', 'calc__mean-empty.traj'),
  packageFixture('ollm-session', 'fixture-session.json'),
];

describe('messages read from every fixture', () => {
  it.each(files)('have unique ids, known roles and paired tool calls: %s', async (path) => {
    const transcript = await readTranscript(path);
    for (const { messages } of transcript.conversations) {
      expect(new Set(messages.map((message) => message.id)).size).toBe(messages.length);
      for (const message of messages) expect(MESSAGE_ROLES).toContain(message.role);
      expect(findToolPairingProblem(messages, messages)).toBeUndefined();
    }
  });

  it('SWE-agent: tool calls keep the arguments string, results carry the output the model saw', async () => {
    const transcript = await readTranscript(fixture('swe-agent-django', 'django__django-11848.traj.json'));
    const messages = transcript.conversations[0]!.messages;
    expect(transcript.conversations[0]!.id).toBe('django__django-11848');
    const call = messages.flatMap((message) => message.parts).find((part) => part.type === 'tool-call');
    expect(call).toMatchObject({ name: 'bash', input: { command: expect.any(String) }, rawInput: expect.stringContaining('"command"') });
    const result = messages.find((message) => message.role === 'tool')!;
    expect(result.parts[0]).toMatchObject({ type: 'tool-result', output: expect.stringContaining('<returncode>') });
    expect(result.metadata?.extra).toMatchObject({ returncode: expect.any(Number) });
    expect(result.timestamp).toMatch(/^20\d\d-\d\d-\d\dT/);
  });

  it('tau-bench: 20 conversations whose tool results carry the tool name', async () => {
    const transcript = await readTranscript(fixture('tau-bench-airline', 'gpt-4o-airline.sample.json'));
    expect(transcript.conversations).toHaveLength(20);
    const results = transcript.conversations.flatMap((conversation) => conversation.messages).filter((message) => message.role === 'tool');
    expect(results.length).toBeGreaterThan(50);
    expect(results.every((message) => message.parts[0]?.type === 'tool-result' && message.parts[0].name !== undefined)).toBe(true);
  });
});

describe('message ids', () => {
  it("use the source's id where it has a unique one, else m<index>", () => {
    const document = [
      { id: 'msg_a', role: 'user', content: 'one' },
      { role: 'assistant', content: 'two' },
      { id: 'msg_a', role: 'user', content: 'duplicate id' },
      { id: 'm1', role: 'assistant', content: 'clashes with a generated id' },
    ];
    const transcript = parseTranscript(JSON.stringify(document), { file: 'ids.json' });
    expect(transcript.conversations[0]!.messages.map((message) => message.id)).toEqual(['msg_a', 'm1', 'm2', 'm3']);
    expect(JSON.parse(serializeTranscript(transcript))).toEqual(document);
  });
});
