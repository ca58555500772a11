import { createTokenizer, findIntegrityViolations, findToolPairingProblem, TokenCounter, type Message } from '@ollm/core';
import type { BenchConversation, FixtureKind } from './fixture-set.js';
import { median, timeAsync } from './measure.js';
import { measureRetention, probesOf, searchableText } from './retention.js';
import type { Strategy } from './strategies.js';

export interface CompactionCase {
  readonly conversation: string;
  readonly kind: FixtureKind;
  readonly strategy: string;
  readonly family: string;
  /** Share of the conversation's tokens aimed for (0.5, 0.25). */
  readonly target: number;
  readonly tokensBefore: number;
  readonly limit: number;
  readonly tokensAfter: number;
  readonly timeColdMs: number;
  readonly timeWarmMs: number;
  /** Tool calls and results still paired (core's findToolPairingProblem); the problem if not. */
  readonly pairingProblem?: string;
  /** Integrity rules the output breaks (core's findIntegrityViolations), empty when valid. */
  readonly brokenRules: readonly string[];
  readonly probesAvailable: number;
  readonly probesRetained: number;
  readonly retention?: number;
  /** `kind:text` of each probe lost. */
  readonly lostProbes: readonly string[];
  readonly probesAvailableByKind: Readonly<Record<string, number>>;
  readonly error?: string;
}

export interface CompactionOptions {
  readonly targets: readonly number[];
  readonly repetitions: number;
  /** Called after each conversation (progress). */
  readonly onConversation?: (done: number, total: number) => void;
}

function brokenRules(input: readonly Message[], output: readonly Message[], tokens: TokenCounter): string[] {
  const stats = { tokensBefore: 0, tokensAfter: 0, timeMs: 0 };
  const result = { messages: output, sourceDigest: '', coveredThrough: input.length - 1, removed: [], stats, limitations: [] };
  return [...new Set(findIntegrityViolations(input, result, tokens).map((violation) => violation.rule))];
}

async function medianTime(strategyRun: ReturnType<Strategy['prepare']>, limit: number, warm: boolean, repetitions: number): Promise<number> {
  const times: number[] = [];
  for (let repetition = 0; repetition < repetitions; repetition += 1) times.push(await timeAsync(strategyRun.arm(limit, warm)));
  return median(times);
}

/** Every strategy at every target on every conversation: time, size, validity and retention. */
export async function runCompactionWorkload(
  conversations: readonly BenchConversation[],
  strategies: readonly Strategy[],
  options: CompactionOptions,
): Promise<CompactionCase[]> {
  const cases: CompactionCase[] = [];
  for (const [index, conversation] of conversations.entries()) {
    const tokens = new TokenCounter(createTokenizer('o200k_base'));
    const input = conversation.messages;
    const tokensBefore = tokens.countMessages(input);
    const probes = probesOf(conversation);
    const originalText = searchableText(input);
    for (const strategy of strategies) {
      const prepared = strategy.prepare(input);
      for (const target of options.targets) {
        const limit = Math.floor(tokensBefore * target);
        const timeColdMs = await medianTime(prepared, limit, false, options.repetitions);
        const timeWarmMs = await medianTime(prepared, limit, true, options.repetitions);
        const output = prepared.output();
        const retention = measureRetention(probes, originalText, searchableText(output));
        const pairingProblem = findToolPairingProblem(input, output);
        const error = prepared.error();
        cases.push({
          conversation: conversation.id,
          kind: conversation.kind,
          strategy: strategy.name,
          family: strategy.family,
          target,
          tokensBefore,
          limit,
          tokensAfter: tokens.countMessages(output),
          timeColdMs,
          timeWarmMs,
          ...(pairingProblem ? { pairingProblem } : {}),
          brokenRules: brokenRules(input, output, tokens),
          probesAvailable: retention.available,
          probesRetained: retention.retained,
          ...(retention.share !== undefined ? { retention: retention.share } : {}),
          lostProbes: retention.lost.map((probe) => `${probe.kind}:${probe.text}`),
          probesAvailableByKind: retention.availableByKind,
          ...(error ? { error } : {}),
        });
      }
    }
    options.onConversation?.(index + 1, conversations.length);
  }
  return cases;
}
