import { join } from 'node:path';
import { RECOVERY_FOLDER, sha256Hex, TokenCounter, type TokenCounting, type ToolCallPart, type ToolResultPart } from '@ollm/core';
import { buildPlaceholder, isPlaceholder } from './build-placeholder.js';
import { describeCall } from './describe-call.js';
import type { Observation } from './find-observations.js';
import type { ResolvedMaskOptions } from './mask-options.js';

/** One tool output chosen for masking. */
export interface PlannedMask {
  readonly observation: Observation;
  readonly placeholder: string;
  /** The tool result with the placeholder as its output: the part the output carries (counted already). */
  readonly part: ToolResultPart;
  readonly sha256: string;
  readonly outputTokens: number;
  readonly placeholderTokens: number;
}

/** Why older outputs were left verbatim, for the limitations report. */
export interface KeptCounts {
  readonly recent: number;
  readonly neverMask: number;
  readonly notEditable: number;
  readonly alreadyMasked: number;
  readonly wouldNotShrink: number;
}

export interface MaskingPlan {
  readonly masks: readonly PlannedMask[];
  readonly kept: KeptCounts;
  readonly tokensAfter: number;
  /** True when `until-limit` stopped early because the conversation fit. */
  readonly stoppedAtLimit: boolean;
}

export interface PlanMaskingInput {
  readonly observations: readonly Observation[];
  readonly options: ResolvedMaskOptions;
  readonly tokens: TokenCounting;
  readonly tokensBefore: number;
  readonly limit?: number;
  readonly logdir?: string;
}

/**
 * Chooses which tool outputs to mask, oldest first: never the last `keepLast` results, never a
 * `neverMask` tool, never one in a message that may not be edited, never an output the
 * placeholder would not shrink by `minimumTokensSaved`. In `until-limit` mode it stops as soon as
 * the running total fits `limit`.
 */
export function planMasking(input: PlanMaskingInput): MaskingPlan {
  const { observations, options, tokens, limit } = input;
  const recentStart = Math.max(0, observations.length - options.keepLast);
  const stopAtLimit = options.mode === 'until-limit' && limit !== undefined;
  const kept = { recent: observations.length - recentStart, neverMask: 0, notEditable: 0, alreadyMasked: 0, wouldNotShrink: 0 };
  const masks: PlannedMask[] = [];
  let total = input.tokensBefore;
  let stoppedAtLimit = false;

  for (const observation of observations.slice(0, recentStart)) {
    if (stopAtLimit && total <= limit) {
      stoppedAtLimit = true;
      break;
    }
    const { result } = observation;
    if (!observation.editable) kept.notEditable += 1;
    else if (observation.toolName !== undefined && options.neverMask.has(observation.toolName)) kept.neverMask += 1;
    else if (isPlaceholder(result.output)) kept.alreadyMasked += 1;
    else {
      const mask = planOne(observation, result, tokens, input.logdir);
      if (mask.outputTokens - mask.placeholderTokens < Math.max(1, options.minimumTokensSaved)) kept.wouldNotShrink += 1;
      else {
        masks.push({ ...mask, sha256: mask.sha256 ?? outputSha256(result) });
        total -= mask.outputTokens - mask.placeholderTokens;
      }
    }
  }
  return { masks, kept, tokensAfter: total, stoppedAtLimit };
}

/**
 * A candidate mask. Without a logdir the placeholder does not name a file, so the sha256 is left
 * for the caller to compute for the outputs actually masked (hashing every large output is not free).
 */
function planOne(
  observation: Observation,
  result: ToolResultPart,
  tokens: TokenCounting,
  logdir: string | undefined,
): Omit<PlannedMask, 'sha256'> & { readonly sha256?: string } {
  // Parts are immutable values: a live session plans the same old outputs again on every
  // compaction, so each placeholder is built (and its output hashed) once per part.
  const owner = countingOwner(tokens);
  const known = plans.get(result);
  if (known && known.toolName === observation.toolName && known.call === observation.call && known.logdir === logdir && known.owner === owner) {
    return { observation, ...known.plan };
  }
  const plan = buildPlan(observation, result, tokens, logdir);
  plans.set(result, { toolName: observation.toolName, call: observation.call, logdir, owner, plan });
  return { observation, ...plan };
}

type Plan = Omit<PlannedMask, 'sha256' | 'observation'> & { readonly sha256?: string };

/** The plan of one part, with what it was made for (a different tool, call, logdir or counting makes another). */
const plans = new WeakMap<
  ToolResultPart,
  {
    readonly toolName: string | undefined;
    readonly call: ToolCallPart | undefined;
    readonly logdir: string | undefined;
    readonly owner: object;
    readonly plan: Plan;
  }
>();

/** What counts made with `tokens` can be shared with: core's counter by its tokenizer, any other only with itself. */
function countingOwner(tokens: TokenCounting): object {
  return Object.getPrototypeOf(tokens) === TokenCounter.prototype ? tokens.tokenizer : tokens;
}

/** sha256 of each masked output, by part (parts are immutable): a live session masks the same outputs in every compaction. */
const hashes = new WeakMap<ToolResultPart, string>();

function outputSha256(result: ToolResultPart): string {
  let sha256 = hashes.get(result);
  if (sha256 === undefined) {
    sha256 = sha256Hex(result.output);
    hashes.set(result, sha256);
  }
  return sha256;
}

function buildPlan(observation: Observation, result: ToolResultPart, tokens: TokenCounting, logdir: string | undefined): Plan {
  const sha256 = logdir === undefined ? undefined : outputSha256(result);
  // The same path saveRemovedContent writes to, so the placeholder can name it before saving.
  const path = logdir === undefined ? undefined : join(logdir, RECOVERY_FOLDER, `${sha256}.txt`);
  // The host counted the message holding this output already; the counter keeps each part's count.
  const outputTokens = tokens.countPartText(result);
  const placeholder = buildPlaceholder({
    call: describeCall(observation.toolName, observation.call),
    output: result.output,
    outputTokens,
    ...(sha256 !== undefined ? { sha256 } : {}),
    ...(result.isError ? { isError: true } : {}),
    ...(path !== undefined ? { path } : {}),
  });
  // Counting the new part itself (not its text) lets the counter reuse the count for the output message.
  const part: ToolResultPart = { ...result, output: placeholder };
  return { placeholder, part, ...(sha256 !== undefined ? { sha256 } : {}), outputTokens, placeholderTokens: tokens.countPartText(part) };
}
