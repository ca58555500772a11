import type { Message } from '@ollm/core';
import { ContextManager, type ContextEventName, type ProviderRegistry } from '@ollm/runtime';
import type { BenchConversation } from '../fixture-set.js';
import { median, timeCall } from '../measure.js';
import { freshTurnCopy } from './next-turn.js';
import { sessionTurns } from './session-turns.js';

/** A session whose pinned messages alone outgrow the window: what each turn costs, and what the runtime does. */
export interface PinnedOverflowReport {
  readonly pipeline: string;
  readonly contextSize: number;
  readonly turns: number;
  /** The first turn after which the pinned messages alone held at least the trigger; undefined if never. */
  readonly pinnedOverTriggerAtTurn?: number;
  /** Turns that ended over the trigger (automatic compaction was due). */
  readonly turnsOverTrigger: number;
  /** How often each runtime event fired. */
  readonly events: Readonly<Record<string, number>>;
  /** `compaction-skipped` by the first words of its reason (`not needed`, `backing off`). */
  readonly skippedReasons: Readonly<Record<string, number>>;
  /** Tokens sent (system and context) after the last turn and at most, and as a multiple of the window. */
  readonly finalContextTokens: number;
  readonly maximumContextTokens: number;
  /** Median per-turn cost (addMessage and maybeCompact) over the first and the last tenth of the turns after the pinned messages filled the trigger. */
  readonly firstTenthMs?: number;
  readonly lastTenthMs?: number;
  /** Median per-turn cost of every turn. */
  readonly medianTurnMs: number;
  readonly errors: readonly string[];
}

export interface PinnedOverflowOptions {
  readonly turns: number;
  readonly contextSize: number;
  readonly registry: ProviderRegistry;
  readonly pipeline: string;
}

const COUNTED_EVENTS = ['compacted', 'compaction-skipped', 'compaction-error', 'compaction-backoff', 'user-messages-folded', 'tool-results-truncated'];

/** A skip reason without its figures (`not needed`, `backing off`, `the result was not smaller than its input`), for counting them. */
export function reasonKind(reason: string): string {
  return reason
    .split(/[:;,(]/)[0]!
    .trim()
    .split(/\s+/)
    .slice(0, 8)
    .join(' ');
}

/**
 * SWE-agent turns whose assistant message is pinned (its tool results are not): once the pinned
 * messages alone hold more than the trigger, no compaction can bring the context under it.
 */
export async function measurePinnedOverflow(conversations: readonly BenchConversation[], options: PinnedOverflowOptions): Promise<PinnedOverflowReport> {
  const pool = sessionTurns(conversations);
  const manager = new ContextManager({
    contextSize: options.contextSize,
    registry: options.registry,
    autoPipeline: options.pipeline,
    systemPrompt: 'You are a careful software engineer.',
  });
  const events: Record<string, number> = {};
  const skippedReasons: Record<string, number> = {};
  const errors = new Set<string>();
  for (const name of COUNTED_EVENTS) {
    manager.on(name as ContextEventName, (payload: unknown) => {
      events[name] = (events[name] ?? 0) + 1;
      const record = payload as { reason?: unknown; error?: unknown };
      if (name === 'compaction-skipped' && typeof record.reason === 'string')
        skippedReasons[reasonKind(record.reason)] = (skippedReasons[reasonKind(record.reason)] ?? 0) + 1;
      if (name === 'compaction-error' && record.error instanceof Error) errors.add(record.error.message.slice(0, 200));
    });
  }
  let pinnedTokens = 0;
  let pinnedOverTriggerAtTurn: number | undefined;
  let turnsOverTrigger = 0;
  let maximumContextTokens = 0;
  const times: number[] = [];
  for (let turn = 1; turn <= options.turns; turn += 1) {
    const messages: Message[] = freshTurnCopy(pool[(turn - 1) % pool.length]!, `pinned ${turn}`).map((message) =>
      message.role === 'assistant' ? { ...message, pinned: true } : message,
    );
    for (const message of messages) if (message.pinned) pinnedTokens += manager.tokens.countMessage(message);
    const addMs = await timeCall(() => {
      for (const message of messages) manager.addMessage(message);
    });
    if (manager.shouldCompact()) turnsOverTrigger += 1;
    let checkMs = 0;
    try {
      checkMs = await timeCall(() => manager.maybeCompact());
    } catch (error) {
      errors.add(error instanceof Error ? error.message.slice(0, 200) : String(error));
    }
    times.push(addMs + checkMs);
    const budget = manager.budget();
    maximumContextTokens = Math.max(maximumContextTokens, budget.totalTokens);
    if (pinnedOverTriggerAtTurn === undefined && pinnedTokens >= budget.trigger) pinnedOverTriggerAtTurn = turn;
  }
  const after = pinnedOverTriggerAtTurn === undefined ? [] : times.slice(pinnedOverTriggerAtTurn);
  const tenth = Math.max(1, Math.floor(after.length / 10));
  return {
    pipeline: options.pipeline,
    contextSize: options.contextSize,
    turns: options.turns,
    ...(pinnedOverTriggerAtTurn !== undefined ? { pinnedOverTriggerAtTurn } : {}),
    turnsOverTrigger,
    events,
    skippedReasons,
    finalContextTokens: manager.budget().totalTokens,
    maximumContextTokens,
    ...(after.length > 0 ? { firstTenthMs: median(after.slice(0, tenth)), lastTenthMs: median(after.slice(-tenth)) } : {}),
    medianTurnMs: median(times),
    errors: [...errors].slice(0, 5),
  };
}
