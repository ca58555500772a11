export type { SourceTurn } from './fixture-turns.js';
export { cycleTurns, fixtureFiles, readSourceTurns } from './fixture-turns.js';
export type { LoggedEvent } from './event-log.js';
export { EventLog } from './event-log.js';
export { SIMULATION_PIPELINE, createSimulationRegistry } from './simulation-registry.js';
export type { SimulatedSession, SimulatedSessionOptions } from './simulated-session.js';
export {
  SIMULATION_CONTEXT_SIZE,
  SIMULATION_MODEL,
  chatRequests,
  checkpointTokens,
  createSimulatedSession,
  sendToModel,
} from './simulated-session.js';
export type { CompressionRecord, RunTurnsOptions, TurnsReport } from './run-turns.js';
export { runTurns } from './run-turns.js';
export { median } from './median.js';
export type { AppendTiming } from './append-timing.js';
export { timeAppends, writeSessionFile } from './append-timing.js';
