import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TokenCounting, checkMessageShape, checkpointOf, createTokenizer, isCheckpointMessage, TokenCounter } from '@ollm/core';
import { checkpointTokenBound, resolveGoalAwareOptions } from './index.js';
import { segmentOwners } from './user-segments.js';
import { GOAL } from './test-support/build-conversation.js';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { createModel } from './test-support/fake-models.js';
import { median, runLongSession, type SessionStep } from './test-support/long-session.js';

const FIXTURE = fileURLToPath(new URL('../../../fixtures/swe-agent-django/django__django-11848.traj.json', import.meta.url));
const tokens = new TokenCounter(createTokenizer('o200k_base'));
const bound = checkpointTokenBound(resolveGoalAwareOptions({}, { maxToolResultTokens: 2000, reasoningStripAgeThreshold: 5 }).levelTargets);

let server: FakeModelServer;
let steps: SessionStep[];
beforeAll(async () => {
  server = await startFakeModelServer();
  steps = await runLongSession({ file: FIXTURE, steps: 50, turnsPerStep: 4, limit: 6000, server, model: createModel(server, 'openai'), tokens, goal: GOAL });
}, 120_000);
afterAll(() => server.close());

describe('goal-aware over 50 successive compressions of a growing SWE-agent session', () => {
  // The fixture's turns repeat, its task message with them, so the session holds a few user
  // messages: checkpoints are made and aged per user message, right after it (they used to be one
  // list for the whole session, leaving user messages in a row); level 0 is still one in all.
  it('keeps all checkpoints under the bound after every step, with at most one per level after each user message', () => {
    expect(steps).toHaveLength(50);
    for (const step of steps) {
      expect(step.checkpointTokens, `step ${step.step}`).toBeLessThanOrEqual(bound);
      const owners = segmentOwners(step.result.messages);
      const levels = step.result.messages.flatMap((message, position) =>
        isCheckpointMessage(message) ? [`${owners[position]}:${checkpointOf(message)!.level}`] : [],
      );
      expect(new Set(levels).size, `levels at step ${step.step}: ${levels}`).toBe(levels.length);
      // The fixture's own fault (its last call, answered by the exit message, has no result) aside.
      const shape = checkMessageShape(step.result.messages, 'strict').filter((violation) => violation.rule !== 'tool-results-follow-call');
      expect(shape, `step ${step.step}`).toEqual([]);
    }
    const last = steps
      .at(-1)!
      .result.messages.filter(isCheckpointMessage)
      .map((message) => checkpointOf(message)!);
    expect(last.map((checkpoint) => checkpoint.level).sort()).toEqual([0, 1, 2, 3]);
    // A step whose new turns all sit in the recent window has nothing to summarise and is a no-op.
    const created = steps.filter((step) => step.result.limitations.some((note) => note.includes('summarised into checkpoint')));
    expect(created.length).toBeGreaterThanOrEqual(45);
    expect(Math.max(...last.map((checkpoint) => checkpoint.compressionNumber ?? 0))).toBe(created.length);
  });

  it('sends the model about as much at step 45 as at step 10, far below the conversation', () => {
    const early = median(steps.slice(4, 15).map((step) => step.sentTokens));
    const late = median(steps.slice(39, 50).map((step) => step.sentTokens));
    expect(early).toBeGreaterThan(0);
    expect(late).toBeLessThanOrEqual(early * 1.5);
    expect(late).toBeLessThan(steps[39]!.fullTokens / 5);
    // The context itself stays bounded too, while the conversation keeps growing.
    expect(steps.at(-1)!.fullTokens).toBeGreaterThan(steps[9]!.fullTokens * 3);
  });
});
