import { median } from '../measure.js';
import { CLI_HELP, NODE_BASELINE, type CliStartupReport } from './cli-startup-workload.js';
import type { ProcessCase, ProcessKind } from './process-workload.js';
import type { InProcessCase } from './in-process-workload.js';
import { LIVE_AGENT_PEER, type LiveAgentCase } from './live-agent-workload.js';
import { pairedRatio, ratio } from './ratio.js';
import type { TimingMode } from './speed-contender.js';

function finite(values: readonly (number | undefined)[]): number[] {
  return values.filter((value): value is number => value !== undefined && Number.isFinite(value));
}

function medianOrUndefined(values: readonly (number | undefined)[]): number | undefined {
  const kept = finite(values);
  return kept.length === 0 ? undefined : median(kept);
}

/** Median over conversations of a contender's per-conversation median, in one mode. */
export function inProcessMedian(cases: readonly InProcessCase[], contender: string, mode: TimingMode): number | undefined {
  return medianOrUndefined(
    cases.filter((entry) => entry.contender === contender && entry.mode === mode && entry.error === undefined).map((entry) => entry.medianMs),
  );
}

/** `numerator / denominator` per conversation (same mode, same rounds), the median of those. */
export function inProcessRatio(cases: readonly InProcessCase[], mode: TimingMode, numerator: string, denominator: string): number | undefined {
  const of = (contender: string) =>
    new Map(
      cases
        .filter((entry) => entry.contender === contender && entry.mode === mode && entry.error === undefined)
        .map((entry) => [entry.conversation, entry.medianMs] as const),
    );
  const top = of(numerator);
  const bottom = of(denominator);
  return pairedRatio([...top.entries()].map(([conversation, value]) => ({ numerator: value, denominator: bottom.get(conversation) })));
}

export function processMedian(
  cases: readonly ProcessCase[],
  contender: string,
  kind: ProcessKind,
  field: 'firstCallMs' | 'importMs' = 'firstCallMs',
): number | undefined {
  return medianOrUndefined(cases.filter((entry) => entry.contender === contender && entry.kind === kind).map((entry) => entry[field]));
}

/** First calls of two contenders in new processes of one kind, paired by transcript. */
export function processRatio(cases: readonly ProcessCase[], kind: ProcessKind, numerator: string, denominator: string): number | undefined {
  return processRatioOverSum(cases, kind, numerator, [denominator]);
}

/**
 * First calls of `numerator` over the sum of the `denominators`' first calls on the same transcript
 * (new processes of one kind): the floor plus the code parse, each timed in processes of its own.
 */
export function processRatioOverSum(cases: readonly ProcessCase[], kind: ProcessKind, numerator: string, denominators: readonly string[]): number | undefined {
  const of = (contender: string) =>
    new Map(cases.filter((entry) => entry.contender === contender && entry.kind === kind).map((entry) => [entry.conversation, entry.firstCallMs] as const));
  const parts = denominators.map(of);
  const sum = (conversation: string): number | undefined => {
    let total = 0;
    for (const part of parts) {
      const value = part.get(conversation);
      if (value === undefined) return undefined;
      total += value;
    }
    return total;
  };
  return pairedRatio([...of(numerator).entries()].map(([conversation, value]) => ({ numerator: value, denominator: sum(conversation) })));
}

export function liveMedian(cases: readonly LiveAgentCase[], contender: string): number | undefined {
  return medianOrUndefined(cases.filter((entry) => entry.contender === contender && entry.error === undefined).map((entry) => entry.medianMs));
}

/** An ollm pipeline after one more turn against LangChain (cached counter) on the whole conversation. */
export function liveRatio(cases: readonly LiveAgentCase[], contender: string): number | undefined {
  const peer = new Map(
    cases.filter((entry) => entry.contender === LIVE_AGENT_PEER && entry.error === undefined).map((entry) => [entry.conversation, entry.medianMs] as const),
  );
  return pairedRatio(
    cases
      .filter((entry) => entry.contender === contender && entry.error === undefined)
      .map((entry) => ({ numerator: entry.medianMs, denominator: peer.get(entry.conversation) })),
  );
}

/** CLI start-up ratios: each command against `node -e 0`, compactions also against `node -e 0` + the time they report. */
export interface CliRatio {
  readonly name: string;
  readonly provider?: string;
  readonly wallMs: number;
  readonly reportedMs?: number;
  readonly overNode?: number;
  /** wall / (node -e 0 + reported compaction time). */
  readonly overNodeAndCompaction?: number;
}

export function cliRatios(report: CliStartupReport): CliRatio[] {
  const node = report.commands.find((command) => command.name === NODE_BASELINE)?.medianWallMs;
  return report.commands.map((command) => {
    const overNode = command.name === NODE_BASELINE ? undefined : ratio(command.medianWallMs, node);
    const overNodeAndCompaction = command.reportedMs !== undefined && node !== undefined ? ratio(command.medianWallMs, node + command.reportedMs) : undefined;
    return {
      name: command.name,
      ...(command.provider !== undefined ? { provider: command.provider } : {}),
      wallMs: command.medianWallMs,
      ...(command.reportedMs !== undefined ? { reportedMs: command.reportedMs } : {}),
      ...(overNode !== undefined ? { overNode } : {}),
      ...(overNodeAndCompaction !== undefined ? { overNodeAndCompaction } : {}),
    };
  });
}

export function helpRatio(report: CliStartupReport): number | undefined {
  return cliRatios(report).find((entry) => entry.name === CLI_HELP)?.overNode;
}
