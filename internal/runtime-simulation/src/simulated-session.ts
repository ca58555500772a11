import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isCheckpointMessage, type LanguageModel } from '@ollm/core';
import { ContextManager, SessionHistory, SnapshotStore } from '@ollm/runtime';
import type { FakeModelServer, RecordedRequest } from '@ollm/fake-model-server';
import { createOllamaModel } from '@ollm/model-ollama';
import { EventLog } from './event-log.js';
import { createSimulationRegistry, SIMULATION_PIPELINE } from './simulation-registry.js';

export const SIMULATION_CONTEXT_SIZE = 16_384;
export const SIMULATION_MODEL = 'fake:8b';

export interface SimulatedSessionOptions {
  readonly server: FakeModelServer;
  /** Default: `createOllamaModel` on the server, `fake:8b`. */
  readonly model?: LanguageModel;
  readonly contextSize?: number;
  readonly withGoalAware?: boolean;
  readonly systemPrompt?: string;
  /** `$OLLM_HOME` for the history and snapshots; default a new temporary folder. */
  readonly home?: string;
  readonly sessionId?: string;
}

/** The pieces of one simulated chat: the manager, its storage, and what the fake server received. */
export interface SimulatedSession {
  readonly manager: ContextManager;
  readonly history: SessionHistory;
  readonly snapshots: SnapshotStore;
  readonly events: EventLog;
  readonly model: LanguageModel;
  readonly home: string;
  readonly server: FakeModelServer;
}

/** A `ContextManager` wired as an application would wire it, on the fake server through the real Ollama client. */
export function createSimulatedSession(options: SimulatedSessionOptions): SimulatedSession {
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'ollm-simulation-'));
  const sessionId = options.sessionId ?? 'simulation';
  const contextSize = options.contextSize ?? SIMULATION_CONTEXT_SIZE;
  const model = options.model ?? createOllamaModel({ host: options.server.url, model: SIMULATION_MODEL, numCtx: contextSize });
  const history = new SessionHistory({ home, sessionId, model: SIMULATION_MODEL, provider: SIMULATION_PIPELINE });
  const snapshots = new SnapshotStore({ home });
  const manager = new ContextManager({
    contextSize,
    systemPrompt: options.systemPrompt ?? 'You are a careful software engineering agent. Work step by step and keep the user informed.',
    registry: createSimulationRegistry({ withGoalAware: options.withGoalAware ?? true }),
    autoPipeline: SIMULATION_PIPELINE,
    model,
    modelName: SIMULATION_MODEL,
    history,
    snapshots,
    sessionId,
    logdir: home,
  });
  return { manager, history, snapshots, events: new EventLog(manager), model, home, server: options.server };
}

/** Chat requests (not describe/list calls) the server received. */
export function chatRequests(server: FakeModelServer): RecordedRequest[] {
  return server.requests.filter((request) => request.path === '/api/chat' || request.path === '/v1/chat/completions');
}

/** Tokens the checkpoints of the active context take. */
export function checkpointTokens(manager: ContextManager): number {
  return manager.tokens.countMessages(manager.activeMessages.filter(isCheckpointMessage));
}

/**
 * Sends the context as a chat application does, through the runtime's `complete()` (the window
 * rule, the reply reserve as the reply limit, calibration from the reported prompt size).
 * Returns the prompt size the server reported (`prompt_eval_count`).
 */
export async function sendToModel(session: SimulatedSession): Promise<number> {
  const result = await session.manager.complete({ model: session.model });
  return result.usage.inputTokens ?? 0;
}
