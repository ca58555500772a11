import { describe, expect, it } from 'vitest';
import { ModelResponseError, ModelUnavailableError } from '@ollm/core';
import { readSession } from '@ollm/runtime';
import { startFakeModelServer, type Fault } from '@ollm/fake-model-server';
import { createOllamaModel } from '@ollm/model-ollama';
import { runTurns } from './run-turns.js';
import { SIMULATION_MODEL, chatRequests, createSimulatedSession } from './simulated-session.js';

const CONTEXT_SIZE = 8_192;
const HEALTHY_TURNS = 40;
const FAULTY_TURNS = 80;

/** The error and its causes, outermost first (the host may wrap a provider's error). */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && chain.length < 5; current = (current as { cause?: unknown }).cause) chain.push(current);
  return chain;
}

const FAULTS: { name: string; fault: Fault; expected: 'unavailable' | 'response' }[] = [
  { name: 'refused connections', fault: { kind: 'refuse' }, expected: 'unavailable' },
  { name: 'HTTP 500 on every chat', fault: { kind: 'status-500', times: 'always', paths: ['/api/chat'] }, expected: 'response' },
  { name: 'a server that hangs (short model timeout)', fault: { kind: 'hang', times: 'always', paths: ['/api/chat'] }, expected: 'unavailable' },
];

describe.each(FAULTS)('automatic compaction when the model server fails: $name', ({ fault, expected }) => {
  it('reports each failure, opens the circuit after 3, falls back to rule-based stages, stays in the window, loses nothing', async () => {
    const server = await startFakeModelServer();
    try {
      const model = createOllamaModel({
        host: server.url,
        model: SIMULATION_MODEL,
        numCtx: CONTEXT_SIZE,
        timeoutMs: 800,
        maxRetries: 1,
        retryDelay: { initialDelayMs: 10, maxDelayMs: 20 },
      });
      const session = createSimulatedSession({ server, model, contextSize: CONTEXT_SIZE, sessionId: 'faults' });
      const { events, manager } = session;

      const healthy = await runTurns(session, { turns: HEALTHY_TURNS, sendEvery: 10 });
      expect(healthy.compactions.some((compaction) => compaction.providers.includes('goal-aware'))).toBe(true);
      const compactionsBefore = healthy.compactions.length;

      server.setFault(fault);
      let requestsWhenOpened: number | undefined;
      manager.on('circuit-open', () => (requestsWhenOpened = chatRequests(server).length));
      const faulty = await runTurns(session, { turns: FAULTY_TURNS, firstTurn: HEALTHY_TURNS, sendEvery: 0 });
      session.history.close();

      const errors = events.of('compaction-error');
      expect(errors.map((error) => [error.provider, error.consecutiveFailures])).toEqual([
        ['goal-aware', 1],
        ['goal-aware', 2],
        ['goal-aware', 3],
      ]);
      for (const { error } of errors) {
        const typed = causeChain(error).find((cause) => (expected === 'unavailable' ? ModelUnavailableError : ModelResponseError).isInstance(cause));
        expect(typed, `${error.message}: ${String(error.cause)}`).toBeDefined();
      }
      expect(events.of('circuit-open')).toEqual([{ provider: 'goal-aware', failures: 3, fallback: 'mask,code-aware,trim' }]);

      // Open circuit: the model is not called again, and compaction goes on without it.
      expect(chatRequests(server).length).toBe(requestsWhenOpened);
      expect(events.of('compaction-skipped').some((skipped) => skipped.provider === 'goal-aware' && skipped.reason.includes('circuit open'))).toBe(true);
      const afterOpen = faulty.compactions.slice(faulty.compactions.findIndex((compaction) => compaction.providers.includes('goal-aware')) + 1);
      const fallbacks = faulty.compactions.filter((compaction) => !compaction.providers.includes('goal-aware'));
      expect(faulty.compactions.filter((compaction) => compaction.providers.includes('goal-aware'))).toEqual([]);
      expect(fallbacks.length).toBeGreaterThanOrEqual(4);
      expect(afterOpen.length).toBeGreaterThan(0);
      expect(manager.compactionCount).toBe(compactionsBefore + faulty.compactions.length);

      for (const [turn, tokens] of [...healthy.contextTokens, ...faulty.contextTokens].entries())
        expect(tokens, `turn ${turn}`).toBeLessThanOrEqual(CONTEXT_SIZE);
      expect(readSession(session.home, 'faults').messages).toEqual([...healthy.added, ...faulty.added]);
    } finally {
      await server.close();
    }
  });
});

describe('automatic compaction when the model answers with empty summaries', () => {
  it('discards each empty result, counts the paid calls, and opens the circuit instead of calling on every turn', async () => {
    const server = await startFakeModelServer();
    try {
      const session = createSimulatedSession({ server, contextSize: CONTEXT_SIZE, sessionId: 'empty' });
      const { events, manager } = session;
      const healthy = await runTurns(session, { turns: HEALTHY_TURNS, sendEvery: 0 });
      server.setFault({ kind: 'empty', times: 'always', paths: ['/api/chat'] });
      let requestsWhenOpened: number | undefined;
      manager.on('circuit-open', () => (requestsWhenOpened = chatRequests(server).length));
      const faulty = await runTurns(session, { turns: FAULTY_TURNS, firstTurn: HEALTHY_TURNS, sendEvery: 0 });
      session.history.close();

      const empty = events.of('compaction-skipped').filter((skipped) => skipped.provider === 'goal-aware' && skipped.reason.includes('empty summary'));
      expect(empty).toHaveLength(3);
      expect(events.count('compaction-error')).toBe(0);
      expect(events.of('circuit-open')).toEqual([{ provider: 'goal-aware', failures: 3, fallback: 'mask,code-aware,trim' }]);
      expect(faulty.compactions.filter((compaction) => compaction.providers.includes('goal-aware'))).toEqual([]);
      expect(chatRequests(server).length).toBe(requestsWhenOpened);
      for (const tokens of faulty.contextTokens) expect(tokens).toBeLessThanOrEqual(CONTEXT_SIZE);
      expect(readSession(session.home, 'empty').messages).toEqual([...healthy.added, ...faulty.added]);
      expect(manager.compactionCount).toBe(healthy.compactions.length + faulty.compactions.length);
    } finally {
      await server.close();
    }
  });
});
