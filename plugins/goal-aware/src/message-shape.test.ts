import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TokenCounter,
  checkMessageShape,
  checkpointOf,
  compactWith,
  createTokenizer,
  findMessageShapeRegressions,
  isCheckpointMessage,
  messageText,
  type Message,
} from '@ollm/core';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { readTranscript } from '@ollm/transcripts';
import { MERGE_NOTE_TEXT } from './goal-aware-provider.js';
import { createGoalAwareProvider } from './index.js';
import { buildConversation } from './test-support/build-conversation.js';
import { createModel } from './test-support/fake-models.js';
import { segmentOwners } from './user-segments.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));
const TAU_BENCH = fileURLToPath(new URL('../../../fixtures/tau-bench-airline/gpt-4o-airline.sample.json', import.meta.url));

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());

/** Checkpoints per user message they follow, as `owner:level` labels. */
function levelsByUser(messages: readonly Message[]): string[] {
  const owners = segmentOwners(messages);
  return messages.flatMap((message, position) => (isCheckpointMessage(message) ? [`${owners[position]}:${checkpointOf(message)!.level}`] : []));
}

describe('goal-aware keeps the strict message shape by construction', () => {
  it('puts each checkpoint right after the user message its turns answered, and ages and merges them per user message', async () => {
    const provider = createGoalAwareProvider({ summaryMaxTokens: 400, preserveRecent: 600 });
    const model = createModel(server, 'ollama');
    let messages: Message[] = buildConversation(6, 'r0');
    const seenLevels = new Set<number>();
    for (let round = 1; round <= 5; round += 1) {
      // The host rejects (message-shape) any output that breaks the strict shape more than its input.
      const result = await compactWith(provider, messages, { config: { limit: 3000 }, context: { model }, shape: 'strict' });
      expect(checkMessageShape(result.messages, 'strict'), `round ${round}`).toEqual([]);
      const labels = levelsByUser(result.messages);
      expect(new Set(labels).size, `round ${round}: ${labels}`).toBe(labels.length);
      for (const message of result.messages.filter(isCheckpointMessage)) seenLevels.add(checkpointOf(message)!.level);
      // The oldest merge into one ultra checkpoint; a user message it took the only answer from gets a note.
      expect(result.messages.filter((message) => checkpointOf(message)?.level === 0).length).toBeLessThanOrEqual(1);
      // Every checkpoint follows a user message, or another checkpoint / kept turn answering the same one.
      const owners = segmentOwners(result.messages);
      for (const [position, message] of result.messages.entries()) if (isCheckpointMessage(message)) expect(owners[position]).toBeGreaterThan(0);
      messages = [...result.messages, ...buildConversation(3, `r${round}`).slice(1)];
    }
    expect([...seenLevels].sort()).toEqual([0, 1, 2, 3]);
    expect(messages.some((message) => messageText(message) === MERGE_NOTE_TEXT)).toBe(true);
  });

  it('on the tau-bench dialogs (many short user turns), at 0.5 and 0.25 x tokens, never a user message after a user message', async () => {
    const { conversations } = await readTranscript(TAU_BENCH);
    const model = createModel(server, 'openai');
    let summarised = 0;
    for (const conversation of conversations.slice(0, 8)) {
      for (const ratio of [0.5, 0.25]) {
        const limit = Math.floor(ratio * tokens.countMessages(conversation.messages));
        const result = await compactWith(createGoalAwareProvider(), conversation.messages, { config: { limit }, context: { model }, shape: 'strict' });
        expect(findMessageShapeRegressions(conversation.messages, result.messages, 'strict'), `${conversation.id} at ${ratio}`).toEqual([]);
        if (result.messages.some(isCheckpointMessage)) summarised += 1;
      }
    }
    expect(summarised).toBeGreaterThan(4);
  });
});
