import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCompressionConfig } from '@ollm/core';
import { ollmHome, readSession } from '@ollm/runtime';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { checkpointTokenBound, resolveGoalAwareOptions } from '@ollm/plugin-goal-aware';
import { median } from './median.js';
import { runTurns, type TurnsReport } from './run-turns.js';
import { SIMULATION_CONTEXT_SIZE, createSimulatedSession, type SimulatedSession } from './simulated-session.js';

const TURNS = 1_000;
// Every checkpoint level at its target plus its header: 150 + 300 + 600 + 1200 + 4 x 40 = 2,410.
const CHECKPOINT_BOUND = checkpointTokenBound(resolveGoalAwareOptions({}, resolveCompressionConfig({})).levelTargets);

let server: FakeModelServer;
let session: SimulatedSession;
let report: TurnsReport;
let temporary: string;

beforeAll(async () => {
  temporary = mkdtempSync(join(tmpdir(), 'ollm-thousand-'));
  server = await startFakeModelServer();
  session = createSimulatedSession({ server, home: ollmHome({ OLLM_HOME: temporary }), sessionId: 'thousand-turns' });
  report = await runTurns(session, { turns: TURNS, sendEvery: 10 });
  session.history.close();
}, 180_000);

afterAll(async () => {
  await server?.close();
  if (temporary) rmSync(temporary, { recursive: true, force: true });
});

describe('a simulated 1,000-turn session (fixture turns, automatic mask,code-aware,trim,goal-aware, 16,384 window)', () => {
  it('finishes all 1,000 turns, compacting many times', () => {
    expect(report.contextTokens).toHaveLength(TURNS);
    expect(report.compactions.length).toBeGreaterThan(20);
    // The model stage was needed and used: most compactions went through goal-aware.
    const withModel = report.compactions.filter((compaction) => compaction.providers.includes('goal-aware'));
    expect(withModel.length).toBeGreaterThan(report.compactions.length / 2);
    const peak = Math.max(...report.contextTokens);
    console.info(
      `1,000 turns: ${report.compactions.length} compactions (${withModel.length} with goal-aware), peak context ${peak} tokens, ` +
        `peak checkpoints ${Math.max(...report.compactions.map((compaction) => compaction.checkpointTokens))}, ` +
        `model tokens per goal-aware compaction median ${median(withModel.map((compaction) => compaction.modelTokensSent))} (max ${Math.max(...withModel.map((compaction) => compaction.modelTokensSent))})`,
    );
  });

  it('never sends more than the window: checked after every turn, and by what the server reported', () => {
    report.contextTokens.forEach((tokens, turn) => expect(tokens, `turn ${turn}`).toBeLessThanOrEqual(SIMULATION_CONTEXT_SIZE));
    report.budgetTokens.forEach((tokens, turn) => expect(tokens, `calibrated, turn ${turn}`).toBeLessThanOrEqual(SIMULATION_CONTEXT_SIZE));
    expect(report.reportedPromptTokens).toHaveLength(TURNS / 10);
    for (const reported of report.reportedPromptTokens) expect(reported).toBeLessThanOrEqual(SIMULATION_CONTEXT_SIZE);
  });

  it(`keeps all checkpoints within ${CHECKPOINT_BOUND} tokens after every compaction`, () => {
    for (const compaction of report.compactions) expect(compaction.checkpointTokens, `turn ${compaction.turn}`).toBeLessThanOrEqual(CHECKPOINT_BOUND);
    expect(Math.max(...report.compactions.map((compaction) => compaction.checkpointTokens))).toBeGreaterThan(CHECKPOINT_BOUND / 2);
  });

  it('keeps every message of the 1,000 turns on disk, unchanged, with the compaction count', () => {
    const stored = readSession(session.home, 'thousand-turns');
    expect(stored.recoveredFromPartialWrite).toBe(false);
    expect(stored.messages).toHaveLength(report.added.length);
    expect(stored.messages).toEqual(report.added);
    expect(new Set(stored.messages.map((message) => message.id.split('-')[1])).size).toBe(TURNS);
    expect(stored.metadata.compactionCount).toBe(session.manager.compactionCount);
  });

  it('reports every compaction with one compacted event, numbered in order', () => {
    const compacted = session.events.of('compacted');
    expect(compacted).toHaveLength(report.compactions.length);
    expect(session.manager.compactionCount).toBe(report.compactions.length);
    compacted.forEach((event, index) => {
      const record = report.compactions[index]!;
      expect(event.compactionCount).toBe(index + 1);
      expect(event.trigger).toBe('automatic');
      expect(event.stages).toEqual(record.providers);
      expect(event.stats.tokensAfter).toBeLessThan(event.stats.tokensBefore);
      // What the runtime reports the model cost is what the server received.
      expect(event.stats.modelInputTokens ?? 0).toBe(record.modelTokensSent);
    });
    expect(session.events.count('auto-snapshot-created')).toBe(report.compactions.length);
    expect(session.events.count('compaction-error')).toBe(0);
    expect(session.events.count('circuit-open')).toBe(0);
  });

  it('sends the model about as much late in the session as early, far less than the session holds', () => {
    const withModel = report.compactions.filter((compaction) => compaction.providers.includes('goal-aware'));
    const third = Math.floor(withModel.length / 3);
    const early = median(withModel.slice(0, third).map((compaction) => compaction.modelTokensSent));
    const late = median(withModel.slice(-third).map((compaction) => compaction.modelTokensSent));
    expect(late).toBeLessThanOrEqual(early * 1.5);
    expect(Math.max(...withModel.map((compaction) => compaction.modelTokensSent))).toBeLessThan(SIMULATION_CONTEXT_SIZE);
  });
});
