import { ContextManager, type ProviderRegistry } from '@ollm/runtime';
import type { BenchConversation } from '../fixture-set.js';
import { median, millisecondsSince, timeCall } from '../measure.js';
import { freshTurnCopy } from './next-turn.js';
import { filledTurn, sessionTurns } from './session-turns.js';

/** What one turn costs the runtime with `activeMessages` in its context (no compaction needed). */
export interface RuntimeTurnCost {
  /** Messages in the active context before the measured turns. */
  readonly activeMessages: number;
  /** Filling the context (untimed for the per-turn figures). */
  readonly fillSeconds: number;
  readonly turns: number;
  /** Median time of `addMessage` for every message of one turn (a turn nobody has counted). */
  readonly addMs: number;
  /** Median time of `maybeCompact()` after the turn: the compression check. */
  readonly checkMs: number;
  /** Median of the two together. */
  readonly turnMs: number;
  /** Compactions that ran anyway (should be 0: the window is far larger than the context). */
  readonly compactions: number;
}

export interface RuntimeTurnReport {
  readonly pipeline: string;
  readonly contextSize: number;
  readonly sizes: readonly RuntimeTurnCost[];
  /** Largest / smallest context: `maybeCompact` alone, and the whole turn. */
  readonly checkRatio: number;
  readonly turnRatio: number;
}

export interface RuntimeTurnOptions {
  readonly sizes: readonly number[];
  readonly turns: number;
  readonly registry: ProviderRegistry;
  readonly pipeline: string;
}

/** A window no context here comes near: every `maybeCompact` is the check alone. */
const HUGE_WINDOW = 1e12;

/**
 * The runtime's per-turn cost at each context size: a `ContextManager` filled with `size`
 * messages (SWE-agent turns, new ids), then `turns` turns, each one a turn no cache has seen,
 * `addMessage` for its messages and `maybeCompact()`. The same turns at every size.
 */
export async function measureRuntimeTurns(conversations: readonly BenchConversation[], options: RuntimeTurnOptions): Promise<RuntimeTurnReport> {
  const pool = sessionTurns(conversations);
  const sizes: RuntimeTurnCost[] = [];
  // An untimed round on the smallest size first: the first size measured must not pay for compiling the code.
  for (const [index, size] of [options.sizes[0]!, ...options.sizes].entries()) {
    const manager = new ContextManager({
      contextSize: HUGE_WINDOW,
      registry: options.registry,
      autoPipeline: options.pipeline,
      systemPrompt: 'You are a careful software engineer.',
    });
    let compactions = 0;
    manager.on('compacted', () => (compactions += 1));
    const fillStarted = process.hrtime.bigint();
    for (let serial = 0; manager.activeMessages.length < size; serial += 1) {
      for (const message of filledTurn(pool[serial % pool.length]!, serial)) manager.addMessage(message);
    }
    const fillSeconds = millisecondsSince(fillStarted) / 1000;
    const activeMessages = manager.activeMessages.length;
    const addTimes: number[] = [];
    const checkTimes: number[] = [];
    const turnTimes: number[] = [];
    for (let turn = 0; turn < options.turns; turn += 1) {
      const messages = freshTurnCopy(pool[(turn * 7919) % pool.length]!, `turn ${turn}`);
      const addMs = await timeCall(() => {
        for (const message of messages) manager.addMessage(message);
      });
      const checkMs = await timeCall(() => manager.maybeCompact());
      addTimes.push(addMs);
      checkTimes.push(checkMs);
      turnTimes.push(addMs + checkMs);
    }
    if (index === 0) continue;
    sizes.push({
      activeMessages,
      fillSeconds,
      turns: options.turns,
      addMs: median(addTimes),
      checkMs: median(checkTimes),
      turnMs: median(turnTimes),
      compactions,
    });
  }
  const first = sizes[0]!;
  const last = sizes[sizes.length - 1]!;
  return { pipeline: options.pipeline, contextSize: HUGE_WINDOW, sizes, checkRatio: last.checkMs / first.checkMs, turnRatio: last.turnMs / first.turnMs };
}
