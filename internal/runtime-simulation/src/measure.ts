/**
 * Measurements for the runtime (not a test: numbers, no assertions). Run after a build:
 *   pnpm turbo run build --filter=@ollm/runtime-simulation && node internal/runtime-simulation/dist/measure.js
 * 1. Time to append one turn to a session of 100 vs 100,000 turns (SessionHistory).
 * 2. The 1,000-turn simulated session: compactions, peak context, model tokens per compaction.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenCounter, createTokenizer } from '@ollm/core';
import { SessionHistory } from '@ollm/runtime';
import { startFakeModelServer } from '@ollm/fake-model-server';
import { timeAppends, writeSessionFile } from './append-timing.js';
import { cycleTurns, readSourceTurns } from './fixture-turns.js';
import { median } from './median.js';
import { runTurns } from './run-turns.js';
import { SIMULATION_CONTEXT_SIZE, createSimulatedSession } from './simulated-session.js';

const home = mkdtempSync(join(tmpdir(), 'ollm-measure-'));
try {
  const tokens = new TokenCounter(createTokenizer('o200k_base'));
  const source = await readSourceTurns();
  const turnsOf = function* (count: number, first = 0) {
    for (const turn of cycleTurns(source, count, { first })) yield turn.messages;
  };
  // Cycled turns differ from their source only in ids, so they cost the source's tokens.
  const sourceTokens = source.map((turn) => turn.messages.map((message) => tokens.countMessage(message)));
  const tokensOf = (turn: number, position: number) => sourceTokens[turn % source.length]![position]!;

  console.log('## Session history: time to append one turn');
  const sessions = [100, 100_000].map((existingTurns) => {
    const started = performance.now();
    const path = writeSessionFile(home, `turns-${existingTurns}`, turnsOf(existingTurns), tokensOf);
    const fileMegabytes = statSync(path).size / 1e6;
    console.log(`built ${existingTurns} turns (${fileMegabytes.toFixed(1)} MB) in ${Math.round(performance.now() - started)} ms`);
    return { history: new SessionHistory({ home, sessionId: `turns-${existingTurns}` }), existingTurns, fileMegabytes };
  });
  const appendTurns = [...turnsOf(2_000, 200_000)];
  for (const timing of timeAppends({ sessions, turns: appendTurns, tokens })) {
    console.log(
      `${timing.existingTurns} turns (${timing.fileMegabytes.toFixed(1)} MB): median ${timing.medianMs.toFixed(3)} ms, p95 ${timing.p95Ms.toFixed(3)} ms per turn (${timing.samples} appends)`,
    );
  }
  for (const { history } of sessions) history.close();

  console.log('\n## 1,000-turn simulated session (16,384 window, mask,code-aware,trim,goal-aware, fake:8b via the Ollama client)');
  const server = await startFakeModelServer();
  try {
    const session = createSimulatedSession({ server, home, sessionId: 'thousand' });
    const started = performance.now();
    const report = await runTurns(session, { turns: 1_000 });
    session.history.close();
    const withModel = report.compactions.filter((compaction) => compaction.providers.includes('goal-aware'));
    const sent = withModel.map((compaction) => compaction.modelTokensSent);
    const third = Math.floor(withModel.length / 3);
    console.log(`run time ${((performance.now() - started) / 1000) | 0} s; ${report.added.length} messages`);
    console.log(
      `compactions: ${report.compactions.length} (${withModel.length} reached goal-aware, ${report.compactions.length - withModel.length} rule-based only)`,
    );
    console.log(
      `peak context: ${Math.max(...report.contextTokens)} of ${SIMULATION_CONTEXT_SIZE} tokens; peak reported prompt_eval_count ${Math.max(...report.reportedPromptTokens)}`,
    );
    console.log(`checkpoints after a compaction: max ${Math.max(...report.compactions.map((compaction) => compaction.checkpointTokens))} tokens`);
    console.log(
      `model tokens sent per goal-aware compaction: median ${median(sent)}, max ${Math.max(...sent)}, first third median ${median(sent.slice(0, third))}, last third median ${median(sent.slice(-third))}; model calls per compaction max ${Math.max(...withModel.map((compaction) => compaction.modelCalls))}`,
    );
    console.log(
      `calibration ratio after ${report.reportedPromptTokens.length} sends: ${session.manager.calibrationRatio.toFixed(4)}; reliability ${JSON.stringify(session.manager.reliability())}`,
    );
  } finally {
    await server.close();
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
