import { createTokenizer, TokenCounter } from '@ollm/core';
import type { BenchConversation, FixtureKind } from '../fixture-set.js';
import type { Strategy } from '../strategies.js';
import { checkConversation } from './conversation-checks.js';
import { cutAfter } from './cut-points.js';
import { lineProbes, measureLineProbes, type LineProbeKind, type ProbeKind } from './fact-probes.js';
import { futureNeeds, measureNeeds, type FutureNeed, type HeldIn } from './future-needs.js';
import type { IdentifierKind } from './identifiers.js';
import { normalisedText } from './probe-lines.js';

/** One conversation cut at one point: how big the prefix is and what the later steps need from it. */
export interface FutureNeedCut {
  readonly conversation: string;
  readonly kind: FixtureKind;
  /** Share of the steps before the cut. */
  readonly fraction: number;
  readonly stepsKept: number;
  readonly stepsTotal: number;
  readonly prefixMessages: number;
  readonly prefixTokens: number;
  readonly needs: number;
  readonly needsByKind: Readonly<Partial<Record<IdentifierKind, number>>>;
  readonly needsByPlace: Readonly<Partial<Record<HeldIn, number>>>;
  /** B, C and D probes at the cut (A is `needs`). */
  readonly probes: Readonly<Record<LineProbeKind, number>>;
  /** The first few probes of each kind (each cut to PROBE_EXAMPLE_LENGTH characters), to see what is asked. */
  readonly probeExamples: Readonly<Record<LineProbeKind, readonly string[]>>;
}

/** Of one probe kind on one case: how many the cut had, how many the compacted prefix holds. */
export interface ProbeCount {
  readonly available: number;
  readonly retained: number;
}

/** One strategy on one cut at one budget. */
export interface FutureNeedCase {
  readonly conversation: string;
  readonly kind: FixtureKind;
  readonly fraction: number;
  readonly strategy: string;
  readonly family: string;
  /** Share of the prefix's tokens allowed (0.5, 0.25, 0.1). */
  readonly budget: number;
  readonly prefixTokens: number;
  /** floor(prefixTokens * budget). */
  readonly limit: number;
  /** o200k, counted as ollm counts (core's TokenCounter), the same for every strategy. */
  readonly tokensAfter: number;
  readonly underBudget: boolean;
  readonly taskKept: boolean;
  readonly valid: boolean;
  readonly pairingProblem?: string;
  /** A tool call shortened without a 12-hex reference (conversation-checks.ts). */
  readonly shortenedCallWithoutReference?: string;
  readonly needs: number;
  readonly retained: number;
  /** retained / needs; undefined when the cut has no need. */
  readonly retention?: number;
  readonly lostByKind: Readonly<Partial<Record<IdentifierKind, number>>>;
  readonly lostByPlace: Readonly<Partial<Record<HeldIn, number>>>;
  /** The first few lost needs, `kind:text`. */
  readonly lostExamples: readonly string[];
  /** Every probe kind (A: the needs above; B-D: fact-probes.ts). */
  readonly probes: Readonly<Record<ProbeKind, ProbeCount>>;
  /** The first few lost B, C and D probes (cut to PROBE_EXAMPLE_LENGTH characters). */
  readonly lostProbeExamples: Readonly<Record<LineProbeKind, readonly string[]>>;
  readonly error?: string;
  /** What the strategy chose (the AI SDK ladder's rung). */
  readonly detail?: string;
}

export interface FutureNeedOptions {
  /** Cut points as shares of the steps (0.5, 0.8). */
  readonly cuts: readonly number[];
  /** Budgets as shares of the prefix's tokens (0.5, 0.25, 0.1). */
  readonly budgets: readonly number[];
  readonly onConversation?: (done: number, total: number, id: string) => void;
}

export interface FutureNeedResult {
  readonly cuts: readonly number[];
  readonly budgets: readonly number[];
  readonly strategies: readonly { readonly name: string; readonly family: string }[];
  readonly cutRecords: readonly FutureNeedCut[];
  readonly cases: readonly FutureNeedCase[];
}

const LOST_EXAMPLES = 5;
const PROBE_EXAMPLES = 3;
const PROBE_EXAMPLE_LENGTH = 160;

function examples(of: (kind: LineProbeKind) => readonly string[], count: number): Record<LineProbeKind, readonly string[]> {
  const first = (kind: LineProbeKind) =>
    of(kind)
      .slice(0, count)
      .map((probe) => probe.slice(0, PROBE_EXAMPLE_LENGTH));
  return { B: first('B'), C: first('C'), D: first('D') };
}

function countBy<T extends string>(needs: readonly FutureNeed[], key: (need: FutureNeed) => T): Partial<Record<T, number>> {
  const counts: Partial<Record<T, number>> = {};
  for (const need of needs) counts[key(need)] = (counts[key(need)] ?? 0) + 1;
  return counts;
}

/**
 * Every strategy on every cut of every conversation at every budget: the compacted prefix's
 * size, validity and the share of the future needs it still holds. No model is called; every
 * strategy's output is checked and counted the same way.
 */
export async function runFutureNeed(
  conversations: readonly BenchConversation[],
  strategies: readonly Strategy[],
  options: FutureNeedOptions,
): Promise<FutureNeedResult> {
  const cutRecords: FutureNeedCut[] = [];
  const cases: FutureNeedCase[] = [];
  for (const [index, conversation] of conversations.entries()) {
    const tokens = new TokenCounter(createTokenizer('o200k_base'));
    for (const fraction of options.cuts) {
      const cut = cutAfter(conversation.messages, fraction);
      if (!cut) continue;
      const needs = futureNeeds(conversation.messages, cut);
      const probes = lineProbes(conversation.messages, cut, needs, conversation.submission);
      const prefixTokens = tokens.countMessages(cut.prefix);
      cutRecords.push({
        conversation: conversation.id,
        kind: conversation.kind,
        fraction,
        stepsKept: cut.stepsKept,
        stepsTotal: cut.stepsTotal,
        prefixMessages: cut.prefix.length,
        prefixTokens,
        needs: needs.length,
        needsByKind: countBy(needs, (need) => need.kind),
        needsByPlace: countBy(needs, (need) => need.heldIn),
        probes: { B: probes.B.length, C: probes.C.length, D: probes.D.length },
        probeExamples: examples((kind) => probes[kind], PROBE_EXAMPLES),
      });
      // The names-list baseline is told the needs (to show what a measure of names alone rewards); the others ignore them.
      const context = { names: needs.map((need) => need.text) };
      for (const strategy of strategies) {
        const prepared = strategy.prepare(cut.prefix, context);
        for (const budget of options.budgets) {
          const limit = Math.floor(prefixTokens * budget);
          await prepared.arm(limit, false)();
          const output = prepared.output();
          const check = checkConversation(cut.prefix, output);
          const retention = measureNeeds(needs, output);
          const lines = measureLineProbes(probes, normalisedText(output));
          const tokensAfter = tokens.countMessages(output);
          const error = prepared.error();
          const detail = prepared.detail?.();
          cases.push({
            conversation: conversation.id,
            kind: conversation.kind,
            fraction,
            strategy: strategy.name,
            family: strategy.family,
            budget,
            prefixTokens,
            limit,
            tokensAfter,
            underBudget: tokensAfter <= limit,
            taskKept: check.taskKept,
            valid: check.valid,
            ...(check.pairingProblem ? { pairingProblem: check.pairingProblem } : {}),
            ...(check.shortenedCallWithoutReference ? { shortenedCallWithoutReference: check.shortenedCallWithoutReference } : {}),
            needs: retention.available,
            retained: retention.retained,
            ...(retention.available > 0 ? { retention: retention.retained / retention.available } : {}),
            lostByKind: countBy(retention.lost, (need) => need.kind),
            lostByPlace: countBy(retention.lost, (need) => need.heldIn),
            lostExamples: retention.lost.slice(0, LOST_EXAMPLES).map((need) => `${need.kind}:${need.text}`),
            probes: {
              A: { available: retention.available, retained: retention.retained },
              B: { available: lines.B.available, retained: lines.B.retained },
              C: { available: lines.C.available, retained: lines.C.retained },
              D: { available: lines.D.available, retained: lines.D.retained },
            },
            lostProbeExamples: examples((kind) => lines[kind].lost, PROBE_EXAMPLES),
            ...(error ? { error } : {}),
            ...(detail ? { detail } : {}),
          });
        }
      }
    }
    options.onConversation?.(index + 1, conversations.length, conversation.id);
  }
  return {
    cuts: options.cuts,
    budgets: options.budgets,
    strategies: strategies.map((strategy) => ({ name: strategy.name, family: strategy.family })),
    cutRecords,
    cases,
  };
}
