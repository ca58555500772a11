import type { Message } from '@ollm/core';

/** One step of an agent: an assistant message and the tool results that follow it (`end` exclusive). */
export interface Step {
  readonly start: number;
  readonly end: number;
}

/** The steps of a conversation, in order: every assistant message starts one. */
export function stepsOf(messages: readonly Message[]): Step[] {
  const steps: Step[] = [];
  for (let start = 0; start < messages.length; start += 1) {
    if (messages[start]!.role !== 'assistant') continue;
    let end = start + 1;
    while (end < messages.length && messages[end]!.role === 'tool') end += 1;
    steps.push({ start, end });
  }
  return steps;
}

/** A conversation cut after a share of its steps: what a compaction gets, and what comes after. */
export interface Cut {
  /** The share of the steps before the cut (0.5, 0.8). */
  readonly fraction: number;
  readonly stepsTotal: number;
  /** `floor(stepsTotal * fraction)`. */
  readonly stepsKept: number;
  /** Everything up to the last tool result of step `stepsKept` (system, task, the kept steps). */
  readonly prefix: readonly Message[];
  /** Everything after it: the later steps (and any user message between steps). */
  readonly later: readonly Message[];
}

/**
 * Cuts `messages` right after the tool results of step `floor(steps * fraction)`, so a call and its
 * result are never separated. Undefined when that leaves no step before or none after the cut.
 */
export function cutAfter(messages: readonly Message[], fraction: number): Cut | undefined {
  const steps = stepsOf(messages);
  const stepsKept = Math.floor(steps.length * fraction);
  if (stepsKept < 1 || stepsKept >= steps.length) return undefined;
  const boundary = steps[stepsKept - 1]!.end;
  return { fraction, stepsTotal: steps.length, stepsKept, prefix: messages.slice(0, boundary), later: messages.slice(boundary) };
}
