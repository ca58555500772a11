import type { Message } from '@ollm/core';
import { cycleTurns, readSourceTurns } from './fixture-turns.js';
import { chatRequests, checkpointTokens, sendToModel, type SimulatedSession } from './simulated-session.js';

/** One `maybeCompact()` call that compacted: what it cost and what it left. */
export interface CompactionRecord {
  readonly turn: number;
  /** The stages that changed the context, in order (e.g. `mask`, `goal-aware`, `window-guard`). */
  readonly providers: readonly string[];
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly checkpointTokens: number;
  /** Prompt tokens the fake server received from the summariser during this compaction. */
  readonly modelTokensSent: number;
  readonly modelCalls: number;
}

/** What a run of turns measured, turn by turn. */
export interface TurnsReport {
  readonly turns: number;
  /** Every message added, as `addMessage` returned it (ids and timestamps filled in). */
  readonly added: readonly Message[];
  /** Tokens of `messagesForModel()` after each turn's `maybeCompact()` (local o200k count). */
  readonly contextTokens: readonly number[];
  /** The runtime's calibrated estimate of the same, after each turn. */
  readonly budgetTokens: readonly number[];
  /** `prompt_eval_count` the server reported for each send. */
  readonly reportedPromptTokens: readonly number[];
  readonly compactions: readonly CompactionRecord[];
}

export interface RunTurnsOptions {
  readonly turns: number;
  /** Number of the first turn, to continue an earlier run. Default 0. */
  readonly firstTurn?: number;
  /** Send the context to the model every `sendEvery` turns (0: never). Default 10. */
  readonly sendEvery?: number;
  /** Called after each turn (after compaction), e.g. to assert invariants as the run goes. */
  readonly afterTurn?: (turn: number, session: SimulatedSession) => void;
}

/**
 * Drives a simulated chat: each turn (from the fixture transcripts, cycled) is added, then
 * `maybeCompact()` runs; every `sendEvery` turns the context is sent to the fake server and the
 * reported prompt size calibrates the budget. A new source conversation sets a new goal.
 */
export async function runTurns(session: SimulatedSession, options: RunTurnsOptions): Promise<TurnsReport> {
  const { manager, server } = session;
  const sendEvery = options.sendEvery ?? 10;
  const source = await readSourceTurns();
  const added: Message[] = [];
  const contextTokens: number[] = [];
  const budgetTokens: number[] = [];
  const reportedPromptTokens: number[] = [];
  const compactions: CompactionRecord[] = [];
  let currentSource = '';
  for (const turn of cycleTurns(source, options.turns, { first: options.firstTurn ?? 0 })) {
    if (turn.source !== currentSource) {
      currentSource = turn.source;
      manager.setGoal(`Resolve the task of ${turn.source}`);
    }
    for (const message of turn.messages) added.push(manager.addMessage(message));
    const requestsBefore = chatRequests(server).length;
    const tokensBefore = manager.tokens.countMessages(manager.messagesForModel());
    const outcome = await manager.maybeCompact();
    if (outcome) {
      const sent = chatRequests(server).slice(requestsBefore);
      compactions.push({
        turn: turn.index,
        providers: outcome.provider.split(','),
        tokensBefore,
        tokensAfter: manager.tokens.countMessages(manager.messagesForModel()),
        checkpointTokens: checkpointTokens(manager),
        modelTokensSent: sent.reduce((sum, request) => sum + request.promptTokens, 0),
        modelCalls: sent.length,
      });
    }
    contextTokens.push(manager.tokens.countMessages(manager.messagesForModel()));
    budgetTokens.push(manager.budget().totalTokens);
    if (sendEvery > 0 && (turn.index + 1) % sendEvery === 0) reportedPromptTokens.push(await sendToModel(session));
    options.afterTurn?.(turn.index, session);
  }
  return { turns: options.turns, added, contextTokens, budgetTokens, reportedPromptTokens, compactions };
}
