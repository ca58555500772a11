import { readFileSync } from 'node:fs';
import { checkpointOf, isCheckpointMessage, type Checkpoint, type Message } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { restoreCheckpoint, withoutCheckpointMetadata } from './checkpoint-header.js';
import { parseTranscript } from './parse-transcript.js';
import { serializeTranscript } from './serialize-transcript.js';
import { fixture, packageFixture } from './test-support/fixture-paths.js';
import { withConversationMessages } from './with-conversation-messages.js';

const checkpoint: Checkpoint = {
  id: 'cp-1',
  level: 2,
  range: 'Messages 3-9',
  summary: 'Read utils.py; add() subtracted.\nFixed it and ran the tests.',
  createdAt: '2026-01-01T00:00:00.000Z',
  originalTokens: 5120,
  currentTokens: 60,
  compressionCount: 2,
  compressionNumber: 3,
  keyDecisions: ['Use plain guards'],
};
const text = [
  '[ollm checkpoint · level 2 · compression 3 · Messages 3-9 · 5120 tokens summarised]',
  checkpoint.summary,
  'Earlier user messages, folded here (full text saved under logdir):',
  '> [user message 4] Please also keep the docs in sync.',
].join('\n');
/** A checkpoint message as goal-aware writes one: header, summary, quotes; the whole checkpoint in metadata. */
const checkpointMessage: Message = {
  id: 'checkpoint-1',
  role: 'assistant',
  parts: [{ type: 'text', text }],
  metadata: { checkpoint, foldedUserQuotes: [{ messageId: 'u4', position: 3, text: 'Please also keep the docs in sync.' }] },
};

const FORMATS = ['formats/openai.json', 'formats/openai-wrapped.json', 'formats/anthropic.json', 'formats/ollama.json', 'formats/gptme/conversation.jsonl'];
const TRANSCRIPTS = [
  ...[...FORMATS, 'swe-agent-django/django__django-14915.traj.json', 'tau-bench-airline/gpt-4o-airline.sample.json'].map((path) => fixture(path)),
  packageFixture('swe-agent-classic', 'calc__mean-empty.traj'),
];

describe('checkpoints survive a transcript file through their header line', () => {
  it.each(TRANSCRIPTS)('%s: written without checkpoint fields, read back as a checkpoint', (path) => {
    const transcript = parseTranscript(readFileSync(path, 'utf8'), { file: path });
    const messages = transcript.conversations[0]!.messages;
    // After the first user message, as goal-aware places one.
    const at = messages.findIndex((message) => message.role === 'user') + 1;
    const compacted = [...messages.slice(0, at), checkpointMessage, ...messages.slice(at)];
    const written = serializeTranscript(withConversationMessages(transcript, 0, compacted));
    // Nothing but the text: a field would break APIs that refuse unknown fields (Anthropic).
    expect(written).not.toContain('foldedUserQuotes');
    expect(written).not.toContain('"checkpoint"');
    const again = parseTranscript(written, { file: path, format: transcript.format });
    const reread = again.conversations[0]!.messages;
    // Before: the message came back as plain assistant text, never aged again and open to trim.
    const restored = reread.find(isCheckpointMessage)!;
    expect(restored, 'a checkpoint after reading').toBeDefined();
    expect(checkpointOf(restored)).toMatchObject({
      level: 2,
      compressionNumber: 3,
      range: 'Messages 3-9',
      summary: checkpoint.summary,
      originalTokens: 5120,
      compressionCount: 1,
      id: `cp-${restored.id}`,
    });
    expect(restored.metadata?.['foldedUserQuotes']).toEqual([{ messageId: 'folded-user-message-4', position: 3, text: 'Please also keep the docs in sync.' }]);
    // And written again (the restored metadata in hand), the file is the same.
    expect(serializeTranscript(again)).toBe(written);
  });

  it('ollm-session, which has a metadata field, keeps the checkpoint whole; a header-only one stays text', () => {
    const path = packageFixture('ollm-session', 'fixture-session.json');
    const transcript = parseTranscript(readFileSync(path, 'utf8'), { file: path });
    const messages = transcript.conversations[0]!.messages;
    const written = serializeTranscript(withConversationMessages(transcript, 0, [...messages.slice(0, 2), checkpointMessage, ...messages.slice(2)]));
    const again = parseTranscript(written, { file: path });
    const restored = again.conversations[0]!.messages.filter(isCheckpointMessage);
    // The new one with everything it carried (keyDecisions, its id), the exported one rebuilt from its header.
    expect(restored.map((message) => checkpointOf(message)!.id)).toEqual(['cp-1', 'cp-m8']);
    expect(checkpointOf(restored[0]!)).toEqual(checkpoint);
    expect(written.match(/"checkpoint"/g)).toHaveLength(1);
    expect(serializeTranscript(again)).toBe(written);
  });

  it('leaves other messages, a checkpoint without its header, and an existing checkpoint alone', () => {
    const plain: Message = { id: 'a', role: 'assistant', parts: [{ type: 'text', text: '[ollm checkpoint · level 3] hand-made' }] };
    expect(restoreCheckpoint(plain)).toBe(plain);
    const user: Message = { id: 'u', role: 'user', parts: [{ type: 'text', text }] };
    expect(restoreCheckpoint(user)).toBe(user);
    expect(restoreCheckpoint(checkpointMessage)).toBe(checkpointMessage);
    const headerless: Message = { ...plain, metadata: { checkpoint } };
    expect(withoutCheckpointMetadata(headerless)).toBe(headerless);
    expect(withoutCheckpointMetadata(checkpointMessage).metadata).toBeUndefined();
  });

  it('an unknown compression number (`?`) and no quotes', () => {
    const message: Message = {
      id: 'x',
      role: 'assistant',
      parts: [{ type: 'text', text: '[ollm checkpoint · level 0 · compression ? · merged checkpoints of compressions 1-4 · 900 tokens summarised]\nShort.' }],
      timestamp: '2026-02-01T00:00:00Z',
    };
    const restored = checkpointOf(restoreCheckpoint(message))!;
    expect(restored).toMatchObject({ level: 0, range: 'merged checkpoints of compressions 1-4', summary: 'Short.', createdAt: '2026-02-01T00:00:00Z' });
    expect(restored.compressionNumber).toBeUndefined();
    expect(restoreCheckpoint(message).metadata?.['foldedUserQuotes']).toBeUndefined();
  });
});
