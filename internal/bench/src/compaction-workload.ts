import { createTokenizer, findIntegrityViolations, findToolPairingProblem, TokenCounter, type FoldedMessage, type Message } from '@ollm/core';
import type { BenchConversation, FixtureKind } from './fixture-set.js';
import { median, timeAsync } from './measure.js';
import { interleavedOrder } from './speed/interleaved-order.js';
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
  /** A new token counter each run, in a warm process (caches that outlive a counter still answer). */
  readonly timeColdMs: number;
  /** The counts already cached. */
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

function brokenRules(input: readonly Message[], output: readonly Message[], tokens: TokenCounter, folded: readonly FoldedMessage[] = []): string[] {
  const stats = { tokensBefore: 0, tokensAfter: 0, timeMs: 0 };
  const result = { messages: output, sourceDigest: '', coveredThrough: input.length - 1, removed: [], stats, limitations: [], folded };
  return [...new Set(findIntegrityViolations(input, result, tokens).map((violation) => violation.rule))];
}

/**
 * Times every prepared strategy `repetitions` times at `limit`, interleaved: each round runs each
 * strategy once, the order rotating every round, so no strategy always runs first or after the same one.
 */
async function interleavedMedians(prepared: readonly ReturnType<Strategy['prepare']>[], limit: number, warm: boolean, repetitions: number): Promise<number[]> {
  const times = prepared.map((): number[] => []);
  for (let round = 0; round < repetitions; round += 1) {
    for (const index of interleavedOrder(prepared.length, round)) times[index]!.push(await timeAsync(prepared[index]!.arm(limit, warm)));
  }
  return times.map((samples) => median(samples));
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
    const prepared = strategies.map((strategy) => strategy.prepare(input));
    const byStrategy = strategies.map((): CompactionCase[] => []);
    for (const target of options.targets) {
      const limit = Math.floor(tokensBefore * target);
      // All strategies with a fresh counter, then all warm, each interleaved.
      const coldTimes = await interleavedMedians(prepared, limit, false, options.repetitions);
      const warmTimes = await interleavedMedians(prepared, limit, true, options.repetitions);
      for (const [position, strategy] of strategies.entries()) {
        const run = prepared[position]!;
        const output = run.output();
        const retention = measureRetention(probes, originalText, searchableText(output));
        const pairingProblem = findToolPairingProblem(input, output);
        const error = run.error();
        byStrategy[position]!.push({
          conversation: conversation.id,
          kind: conversation.kind,
          strategy: strategy.name,
          family: strategy.family,
          target,
          tokensBefore,
          limit,
          tokensAfter: tokens.countMessages(output),
          timeColdMs: coldTimes[position]!,
          timeWarmMs: warmTimes[position]!,
          ...(pairingProblem ? { pairingProblem } : {}),
          brokenRules: brokenRules(input, output, tokens, run.folded?.()),
          probesAvailable: retention.available,
          probesRetained: retention.retained,
          ...(retention.share !== undefined ? { retention: retention.share } : {}),
          lostProbes: retention.lost.map((probe) => `${probe.kind}:${probe.text}`),
          probesAvailableByKind: retention.availableByKind,
          ...(error ? { error } : {}),
        });
      }
    }
    // Strategy by strategy, each at every target, as the tables list them.
    cases.push(...byStrategy.flat());
    options.onConversation?.(index + 1, conversations.length);
  }
  return cases;
}
