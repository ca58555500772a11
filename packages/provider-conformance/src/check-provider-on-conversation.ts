import {
  type CompactionResult,
  type CompressionConfig,
  computeSourceDigest,
  type ContextProvider,
  findIntegrityViolations,
  type Message,
  type MessageShapeRuleSet,
  type ProviderContext,
  runProvider,
  TokenCounter,
} from '@ollm/core';
import { findInputMutations, snapshotInput } from './checks/input-snapshot.js';
import { findPreservationFailures } from './checks/preserved-messages.js';
import { findRemovedFileFailures } from './checks/removed-files.js';
import { findAccountingFailures } from './checks/result-accounting.js';
import { describeResultShapeProblem } from './checks/result-shape.js';
import type { ConformanceFailure } from './conformance-failure.js';
import { withTemporaryLogdir } from './temporary-logdir.js';

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function checkShouldCompress(
  provider: ContextProvider,
  messages: readonly Message[],
  config: CompressionConfig,
  context: ProviderContext,
): ConformanceFailure[] {
  // v2 has no shouldCompress: the host decides when to compact.
  if (provider.specificationVersion !== 'v1') return [];
  try {
    const answer: unknown = provider.shouldCompress(messages, config, context);
    if (typeof answer === 'boolean') return [];
    return [{ check: 'should-compress', detail: `shouldCompress returned ${typeof answer}, not a boolean` }];
  } catch (error) {
    return [{ check: 'should-compress', detail: `shouldCompress threw ${describeError(error)}` }];
  }
}

/** Runs `compress` with a fresh logdir (unless the config names one) and checks the files it lists there. */
async function compressInLogdir(
  provider: ContextProvider,
  messages: readonly Message[],
  config: CompressionConfig,
  context: ProviderContext,
  inspect: (result: unknown, logdir: string) => ConformanceFailure[],
): Promise<ConformanceFailure[]> {
  const run = async (logdir: string): Promise<ConformanceFailure[]> => {
    let result: unknown;
    try {
      // Through the host's own call (v1 or v2), so a v2 provider's result carries the host's digest and stats.
      result = await runProvider(provider, messages, { ...config, logdir }, context);
    } catch (error) {
      return [{ check: 'compress', detail: `compress threw ${describeError(error)}` }];
    }
    return inspect(result, logdir);
  };
  return config.logdir === undefined ? withTemporaryLogdir(run) : run(config.logdir);
}

export interface ConversationCheckOptions {
  /**
   * The message shape the output must keep, no more often broken than in the input (core's
   * `MESSAGE_SHAPE_RULES`). Default `strict`: what chat templates and the Anthropic API accept, so
   * a conforming provider's output can go to any model; failures come back as `integrity:message-shape`.
   */
  readonly shape?: MessageShapeRuleSet;
}

/**
 * Runs `provider` on one conversation and returns every conformance failure found (empty when the
 * provider behaved). The checks are listed in `CONFORMANCE_CHECKS`; integrity violations come back
 * as `integrity:<rule>`, the strict message shape included (`options.shape`). `compress` runs
 * twice: on `messages`, then on a deep copy of them, each with its own empty temporary logdir.
 */
export async function checkProviderOnConversation(
  provider: ContextProvider,
  messages: readonly Message[],
  config: CompressionConfig,
  context: ProviderContext,
  options: ConversationCheckOptions = {},
): Promise<ConformanceFailure[]> {
  const shape = options.shape ?? 'strict';
  // Checks compare against a private copy, so a provider that mutates its input is judged on
  // what it was given, not on what it turned the input into.
  const reference: readonly Message[] = structuredClone(messages);
  const expectedDigest = computeSourceDigest(reference);
  const snapshot = snapshotInput(messages);
  const failures: ConformanceFailure[] = [];

  failures.push(...checkShouldCompress(provider, messages, config, context));

  let firstDigest: string | undefined;
  const firstRun = await compressInLogdir(provider, messages, config, context, (value, logdir) => {
    const shapeProblem = describeResultShapeProblem(value);
    if (shapeProblem !== undefined) return [{ check: 'compress', detail: shapeProblem }];
    const result = value as CompactionResult;
    firstDigest = result.sourceDigest;
    const found: ConformanceFailure[] = [];
    for (const violation of findIntegrityViolations(reference, result, context.tokens, { shape })) {
      found.push({ check: `integrity:${violation.rule}`, detail: violation.detail });
    }
    if (result.sourceDigest !== expectedDigest) {
      found.push({ check: 'source-digest', detail: `sourceDigest ${result.sourceDigest}, expected ${expectedDigest}` });
    }
    found.push(...findPreservationFailures(reference, result));
    found.push(...findAccountingFailures(reference, result, config, new TokenCounter(context.tokens.tokenizer)));
    found.push(...findRemovedFileFailures(reference, result, logdir));
    return found;
  });
  failures.push(...findInputMutations(snapshot, messages), ...firstRun);
  if (firstDigest === undefined) return failures;

  const secondRun = await compressInLogdir(provider, structuredClone(reference), config, context, (value) => {
    const digest = (value as Partial<CompactionResult> | null)?.sourceDigest;
    if (digest === firstDigest) return [];
    return [{ check: 'source-digest-stable', detail: `second run on a deep copy gave sourceDigest ${String(digest)}, first ${firstDigest}` }];
  });
  // A second run that throws is still a failure of stability, not of the first result.
  failures.push(
    ...secondRun.map((failure) => (failure.check === 'compress' ? { check: 'source-digest-stable', detail: `second run: ${failure.detail}` } : failure)),
  );
  return failures;
}
