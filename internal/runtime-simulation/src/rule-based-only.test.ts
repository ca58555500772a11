import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSession } from '@ollm/runtime';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { runTurns, type TurnsReport } from './run-turns.js';
import { createSimulatedSession, type SimulatedSession } from './simulated-session.js';

// Small enough that the fixtures' user messages alone outgrow it within the run.
const CONTEXT_SIZE = 8_192;
const TURNS = 600;

let server: FakeModelServer;
let session: SimulatedSession;
let report: TurnsReport;
beforeAll(async () => {
  server = await startFakeModelServer();
  session = createSimulatedSession({ server, contextSize: CONTEXT_SIZE, withGoalAware: false, sessionId: 'rules-only' });
  report = await runTurns(session, { turns: TURNS, sendEvery: 0 });
  session.history.close();
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('a long session with rule-based stages and the window guard only (no model stage)', () => {
  it('never sends more than the window, even once user messages alone outgrow it', () => {
    report.contextTokens.forEach((tokens, turn) => expect(tokens, `turn ${turn}`).toBeLessThanOrEqual(CONTEXT_SIZE));
    const userTokens = session.manager.tokens.countMessages(report.added.filter((message) => message.role === 'user'));
    expect(userTokens).toBeGreaterThan(CONTEXT_SIZE);
  });

  it('folds the oldest user messages explicitly, and keeps them all on disk', () => {
    const folded = session.events.of('user-messages-folded');
    expect(folded.length).toBeGreaterThan(0);
    expect(session.events.of('compacted').some((event) => event.stages.includes('window-guard'))).toBe(true);
    expect(session.events.count('compacted')).toBe(report.compactions.length);
    expect(readSession(session.home, 'rules-only').messages).toEqual(report.added);
  });
});
