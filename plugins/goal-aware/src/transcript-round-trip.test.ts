import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenCounter, checkpointOf, compactWith, createTokenizer, isCheckpointMessage } from '@ollm/core';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { parseTranscript, serializeTranscript, withConversationMessages, type Transcript } from '@ollm/transcripts';
import { createGoalAwareProvider } from './index.js';
import { createModel } from './test-support/fake-models.js';

const FIXTURES = ['swe-agent-django/django__django-14915.traj.json', 'tau-bench-airline/gpt-4o-airline.sample.json'];
const path = (name: string) => fileURLToPath(new URL(`../../../fixtures/${name}`, import.meta.url));

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());

const tokens = new TokenCounter(createTokenizer('o200k_base'));

/** The longest conversation of a file (tau-bench holds many). */
function longest(transcript: Transcript): number {
  const sizes = transcript.conversations.map((conversation) => tokens.countMessages(conversation.messages));
  return sizes.indexOf(Math.max(...sizes));
}

/** Compacts the file's longest conversation to `ratio` of its size (recent window `recent` of it) and returns the file as written, read back. */
async function compactFile(transcript: Transcript, index: number, ratio: number, recent: number): Promise<Transcript> {
  const model = createModel(server, 'ollama');
  const messages = transcript.conversations[index]!.messages;
  const size = tokens.countMessages(messages);
  const result = await compactWith(createGoalAwareProvider({ preserveRecent: Math.floor(recent * size) }), messages, {
    config: { limit: Math.floor(ratio * size) },
    context: { model, tokens },
    shape: 'strict',
  });
  const written = serializeTranscript(withConversationMessages(transcript, index, result.messages));
  return parseTranscript(written, { file: transcript.file, format: transcript.format });
}

describe('compacting a compacted file ages its checkpoints', () => {
  it.each(FIXTURES)('%s: the checkpoints come back from the file, and the next compaction ages them', async (name) => {
    const original = parseTranscript(readFileSync(path(name), 'utf8'), { file: name });
    const index = longest(original);
    const once = await compactFile(original, index, 0.7, 0.3);
    // Before: written as plain assistant text, they came back as no checkpoint at all.
    const made = once.conversations[index]!.messages.filter(isCheckpointMessage);
    expect(made.length).toBeGreaterThan(0);
    expect(made.every((message) => checkpointOf(message)!.level === 3 && checkpointOf(message)!.compressionNumber === 1)).toBe(true);
    // A smaller recent window: the turns kept last time are old enough now.
    const twice = await compactFile(once, index, 0.7, 0.05);
    const after = twice.conversations[index]!.messages.filter(isCheckpointMessage).map((message) => checkpointOf(message)!);
    // The first compression's checkpoints aged (level 2), the second's are new (level 3, compression 2).
    expect(after.some((checkpoint) => checkpoint.compressionNumber === 1 && checkpoint.level === 2)).toBe(true);
    expect(after.some((checkpoint) => checkpoint.compressionNumber === 2 && checkpoint.level === 3)).toBe(true);
    // An old checkpoint is never summarised again as if it were a turn.
    expect(after.every((checkpoint) => !checkpoint.summary.includes('[ollm checkpoint'))).toBe(true);
  });
});
