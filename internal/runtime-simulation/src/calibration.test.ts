import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LanguageModel } from '@ollm/core';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { createOllamaModel } from '@ollm/model-ollama';
import { runTurns, type TurnsReport } from './run-turns.js';
import { SIMULATION_CONTEXT_SIZE, SIMULATION_MODEL, createSimulatedSession, type SimulatedSession } from './simulated-session.js';

/** A model whose server counts `factor` times the tokens o200k does (a hungrier tokenizer). */
function withHungrierTokenizer(model: LanguageModel, factor: number): LanguageModel {
  return {
    ...model,
    describe: model.describe?.bind(model),
    async complete(options) {
      const result = await model.complete(options);
      const inputTokens = result.usage.inputTokens === undefined ? undefined : Math.round(result.usage.inputTokens * factor);
      return { ...result, usage: { ...result.usage, inputTokens } };
    },
  };
}

const FACTOR = 1.3;
let server: FakeModelServer;
let session: SimulatedSession;
let report: TurnsReport;
beforeAll(async () => {
  server = await startFakeModelServer();
  const model = withHungrierTokenizer(createOllamaModel({ host: server.url, model: SIMULATION_MODEL, numCtx: SIMULATION_CONTEXT_SIZE }), FACTOR);
  session = createSimulatedSession({ server, model, sessionId: 'calibration' });
  report = await runTurns(session, { turns: 300, sendEvery: 5 });
}, 120_000);
afterAll(async () => {
  session?.history.close();
  await server?.close();
});

describe('calibration with a model that counts 30% more tokens than o200k', () => {
  it('learns the ratio from the reported prompt sizes', () => {
    expect(session.manager.calibrationRatio).toBeGreaterThan(FACTOR - 0.05);
    expect(session.manager.calibrationRatio).toBeLessThan(FACTOR + 0.05);
  });

  it('keeps what the server counts inside the window by compacting earlier in o200k terms', () => {
    for (const [send, reported] of report.reportedPromptTokens.entries()) expect(reported, `send ${send}`).toBeLessThanOrEqual(SIMULATION_CONTEXT_SIZE);
    // Uncalibrated, the o200k peak reaches ~13,600 (thousand-turns), which this model counts as ~17,700.
    expect(Math.max(...report.contextTokens) * FACTOR).toBeLessThanOrEqual(SIMULATION_CONTEXT_SIZE);
  });
});
