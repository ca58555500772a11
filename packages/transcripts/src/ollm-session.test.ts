import { readFileSync } from 'node:fs';
import { checkpointOf, InvalidTranscriptError, isCheckpointMessage, TokenCounter, createTokenizer, type Checkpoint, type Message } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { detectFormat } from './detect-format.js';
import { parseTranscript } from './parse-transcript.js';
import { readTranscript } from './read-transcript.js';
import { serializeTranscript } from './serialize-transcript.js';
import { packageFixture } from './test-support/fixture-paths.js';
import { CHECKPOINT_TEXT, exportWithRuntime, SAMPLE_SESSION } from './test-support/session-export.js';
import { withConversationMessages } from './with-conversation-messages.js';

const FIXTURE = packageFixture('ollm-session', 'fixture-session.json');

interface SessionFile {
  sessionId: string;
  messages: Record<string, unknown>[];
  toolCalls: unknown[];
  metadata: unknown;
  [key: string]: unknown;
}

function errorOf(run: () => unknown): InvalidTranscriptError {
  try {
    run();
  } catch (error) {
    if (InvalidTranscriptError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InvalidTranscriptError');
}

describe('ollm session exports (ollm-session)', () => {
  it('export -> read -> write is byte-identical, for a file the runtime exporter writes now', async () => {
    const exported = await exportWithRuntime();
    expect(detectFormat(exported, 'session.json')).toBe('ollm-session');
    const transcript = parseTranscript(exported, { file: 'session.json' });
    expect(transcript.format).toBe('ollm-session');
    expect(serializeTranscript(transcript)).toBe(exported);
    // And again from what was written: reading is stable.
    const again = parseTranscript(serializeTranscript(transcript), { file: 'session.json' });
    expect(again.conversations).toEqual(transcript.conversations);
  });

  it('the committed export (written by the same exporter) reads and writes back byte for byte', async () => {
    const transcript = await readTranscript(FIXTURE);
    expect(transcript.format).toBe('ollm-session');
    expect(serializeTranscript(transcript)).toBe(readFileSync(FIXTURE, 'utf8'));
  });

  it('reads every part, role and timestamp the session recorded; the session id names the conversation', async () => {
    const transcript = parseTranscript(await exportWithRuntime(), { file: 'session.json' });
    const [conversation] = transcript.conversations;
    expect(conversation!.id).toBe('fixture-session');
    const messages = conversation!.messages;
    // The exporter writes each message's id.
    expect(messages.map((message) => message.id)).toEqual(SAMPLE_SESSION.map((message) => message.id));
    expect(messages.map(({ role, parts, timestamp }) => ({ role, parts, timestamp }))).toEqual(
      SAMPLE_SESSION.map(({ role, parts, timestamp }) => ({ role, parts, timestamp })),
    );
    // Not the old failure: the content is there (the openai reader saw none of it).
    const counter = new TokenCounter(createTokenizer('o200k_base'));
    expect(messages.reduce((sum, message) => sum + counter.countMessage(message), 0)).toBeGreaterThan(100);
  });

  it('keeps the checkpoint whole: the exporter writes its metadata, the reader gives it back', async () => {
    const messages = parseTranscript(await exportWithRuntime(), { file: 'session.json' }).conversations[0]!.messages;
    const checkpoint = messages.find(isCheckpointMessage)!;
    expect(checkpoint.parts).toEqual([{ type: 'text', text: CHECKPOINT_TEXT }]);
    expect(checkpointOf(checkpoint)).toEqual(checkpointOf(SAMPLE_SESSION.find(isCheckpointMessage)!));
    expect(checkpoint.metadata).toEqual(SAMPLE_SESSION.find(isCheckpointMessage)!.metadata);
  });

  it('a file in another layout is an error, not an empty conversation: read as OpenAI it names the file and the reason', async () => {
    const exported = await exportWithRuntime();
    const error = errorOf(() => parseTranscript(exported, { file: 'session.json', format: 'openai' }));
    expect(error.file).toBe('session.json');
    expect(error.position).toBe('message 0');
    expect(error.reason).toMatch(/^a chat message must have "content" \(this one has: id, role, parts\); messages with "parts" are ollm's own layout/);
  });

  it('after compaction: session fields stay as read, kept messages are their source objects, a new checkpoint keeps all its metadata', async () => {
    const exported = await exportWithRuntime();
    const transcript = parseTranscript(exported, { file: 'session.json' });
    const messages = transcript.conversations[0]!.messages;
    const checkpoint: Checkpoint = {
      id: 'cp-new',
      level: 1,
      range: 'Messages 3-6',
      summary: 'Read and patched räkna.py.',
      createdAt: '2026-03-02T09:02:00.000Z',
      originalTokens: 300,
      currentTokens: 20,
      compressionCount: 1,
      compressionNumber: 2,
      keyDecisions: ['patch in place'],
      filesModified: ['räkna.py'],
    };
    const summary: Message = {
      id: 'cp-message-2',
      role: 'assistant',
      parts: [{ type: 'text', text: '[ollm checkpoint · level 1 · compression 2 · Messages 3-6 · 300 tokens summarised]\nRead and patched räkna.py.' }],
      timestamp: '2026-03-02T09:02:00.000Z',
      metadata: { checkpoint },
    };
    const compacted = [messages[0]!, messages[1]!, summary, ...messages.slice(6)];
    const written = serializeTranscript(withConversationMessages(transcript, 0, compacted));
    const source = JSON.parse(exported) as SessionFile;
    const document = JSON.parse(written) as SessionFile;
    expect({ ...document, messages: [] }).toEqual({ ...source, messages: [] });
    expect(Object.keys(document)).toEqual(Object.keys(source));
    expect(document.messages).toEqual([
      source.messages[0],
      source.messages[1],
      // The file's messages carry ids (the exporter writes them), so a new one does too.
      { id: 'cp-message-2', role: 'assistant', parts: summary.parts, timestamp: summary.timestamp, metadata: { checkpoint } },
      ...source.messages.slice(6),
    ]);
    // Read back, the new checkpoint is whole (keyDecisions, filesModified, its own id), not rebuilt from the header.
    const reread = parseTranscript(written, { file: 'session.json' }).conversations[0]!.messages;
    expect(checkpointOf(reread[2]!)).toEqual(checkpoint);
    expect(serializeTranscript(parseTranscript(written, { file: 'session.json' }))).toBe(written);
  });

  it('a layout that carries ids, pinned, name and metadata is read losslessly and written back byte for byte', () => {
    // Built by hand: pinned and name, which the sample session does not use.
    const checkpoint = {
      id: 'cp-7',
      level: 2,
      range: 'Messages 2-3',
      summary: 'Listed files.',
      createdAt: '2026-01-01T00:00:00Z',
      originalTokens: 90,
      currentTokens: 9,
      compressionCount: 2,
      keyDecisions: ['keep it small'],
    };
    const session = {
      sessionId: 's-ids',
      startTime: '2026-01-01T00:00:00.000Z',
      lastActivity: '2026-01-01T00:05:00.000Z',
      messages: [
        { id: 'sys-1', role: 'system', parts: [{ type: 'text', text: 'Be brief.' }], pinned: true },
        {
          id: 'u-1',
          role: 'user',
          parts: [{ type: 'text', text: 'List the files.' }],
          timestamp: '2026-01-01T00:00:01.000Z',
          name: 'ana',
          extraField: { kept: true },
        },
        {
          id: 'cp-7-message',
          role: 'assistant',
          parts: [{ type: 'text', text: '[ollm checkpoint · level 2 · compression ? · Messages 2-3 · 90 tokens summarised]\nListed files.' }],
          timestamp: '2026-01-01T00:00:02.000Z',
          metadata: { checkpoint, source: 'goal-aware' },
        },
        { id: 'a-1', role: 'assistant', parts: [{ type: 'tool-call', callId: 'c1', name: 'ls', input: {}, cacheHint: 'x' }], pinned: false },
        { id: 'dup', role: 'tool', parts: [{ type: 'tool-result', callId: 'c1', output: 'a.txt' }] },
        { id: 'dup', role: 'assistant', parts: [{ type: 'text', text: 'One file: a.txt.' }] },
      ],
      toolCalls: [{ id: 'c1', name: 'ls', args: {}, result: { llmContent: 'a.txt' } }],
      metadata: { tokenCount: 40, compactionCount: 2, compressionCount: 2 },
    };
    const text = `${JSON.stringify(session, null, 2)}\n`;
    const transcript = parseTranscript(text, { file: 'ids.json' });
    const messages = transcript.conversations[0]!.messages;
    expect(messages.map((message) => message.id)).toEqual(['sys-1', 'u-1', 'cp-7-message', 'a-1', 'dup', 'm5']);
    expect(messages[0]!.pinned).toBe(true);
    expect(messages[1]!.name).toBe('ana');
    expect(messages[2]!.metadata).toEqual({ checkpoint, source: 'goal-aware' });
    expect(messages[3]!.parts[0]).toEqual({ type: 'tool-call', callId: 'c1', name: 'ls', input: {}, cacheHint: 'x' });
    expect(serializeTranscript(transcript)).toBe(text);
    // A new message in a layout with ids gets its own id.
    const added: Message = { id: 'new-1', role: 'user', parts: [{ type: 'text', text: 'Thanks.' }] };
    const written = JSON.parse(serializeTranscript(withConversationMessages(transcript, 0, [...messages, added]))) as SessionFile;
    expect(written.messages.at(-1)).toEqual({ id: 'new-1', role: 'user', parts: [{ type: 'text', text: 'Thanks.' }] });
  });

  it.each([
    ['messages missing', { sessionId: 's', startTime: 't' }, 'messages', /^"messages" must be an array, got nothing$/],
    [
      'parts not an array',
      { sessionId: 's', startTime: 't', messages: [{ role: 'user', content: 'hi' }] },
      'message 0',
      /^"parts" must be an array, got nothing$/,
    ],
    [
      'an unknown role',
      { sessionId: 's', toolCalls: [], messages: [{ role: 'robot', parts: [] }] },
      'message 0',
      /^unknown role "robot" \(expected one of: system, user, assistant, tool\)$/,
    ],
    [
      'an unknown part type',
      {
        sessionId: 's',
        startTime: 't',
        messages: [
          {
            role: 'user',
            parts: [
              { type: 'text', text: 'a' },
              { type: 'video', url: 'x' },
            ],
          },
        ],
      },
      'message 0, part 1',
      /^unknown part type "video" \(expected one of: text, reasoning, tool-call, tool-result, file\)$/,
    ],
    [
      'a part missing its text',
      { sessionId: 's', startTime: 't', messages: [{ role: 'user', parts: [{ type: 'text' }] }] },
      'message 0, part 0',
      /^text must be a string, got nothing$/,
    ],
    [
      'a tool result without its call',
      { sessionId: 's', startTime: 't', messages: [{ role: 'tool', parts: [{ type: 'tool-result', callId: 'c9', output: 'x' }] }] },
      'message 0',
      /^tool result for call "c9" has no earlier tool call$/,
    ],
    [
      'pinned not a boolean',
      { sessionId: 's', startTime: 't', messages: [{ role: 'user', parts: [], pinned: 'yes' }] },
      'message 0',
      /^pinned must be a boolean, got a string$/,
    ],
  ] as const)('rejects a session file with %s', (_label, document, position, reason) => {
    const error = errorOf(() => parseTranscript(JSON.stringify(document), { file: 'bad-session.json' }));
    expect(error.file).toBe('bad-session.json');
    expect(error.position).toBe(position);
    expect(error.reason).toMatch(reason);
  });
});
