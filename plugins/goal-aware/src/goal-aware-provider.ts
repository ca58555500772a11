import {
  buildCompactionResult,
  type CompactionResult,
  type CompressionConfig,
  type ContextProviderV2,
  createMessageId,
  type FoldedMessage,
  type Message,
  messageText,
  modelWindow,
  NoModelError,
  outputFromResult,
  type ProviderContext,
  type RemovedContent,
  saveRemovedContent,
  sha256Hex,
  turnOf,
  v1Arguments,
} from '@ollm/core';
import { ageCheckpoints } from './age-checkpoints.js';
import { CHECKPOINT_HEADER_ALLOWANCE, checkpointMessage, findCheckpoints, quoteOf, renderQuotes, type FoldedQuote } from './checkpoint-message.js';
import { extractFacts } from './extract-facts.js';
import { resolveGoalAwareOptions, type GoalAwareOptions } from './goal-aware-options.js';
import { planUserFolds } from './plan-user-folds.js';
import { renderSpan } from './render-span.js';
import { selectSpan } from './select-span.js';
import { Summariser } from './summariser.js';
import { groupByOwner, segmentOwners } from './user-segments.js';

export const GOAL_AWARE_PROVIDER_NAME = 'goal-aware';
/** Why folded user messages are absent from the output (CompactionResult `folded`). */
export const USER_FOLD_REASON = 'user messages exceeded their share of the budget; quoted in the checkpoint';
const QUOTE_TOKENS = 80;
/** A span smaller than this cannot come back smaller as a checkpoint (header included): no model call. */
export const MINIMUM_SPAN_TOKENS = 160;
/** The turns answering one user message are summarised only from this size: smaller ones stay verbatim. */
export const MINIMUM_GROUP_TOKENS = 120;
/** The least a checkpoint's summary is asked for, however small its share of the compression's target. */
const MINIMUM_SUMMARY_TOKENS = 32;
const MINIMUM_QUOTE_BUDGET = 60;

/**
 * ollm's goal-aware summariser: assistant and tool turns older than the recent window become
 * checkpoints (assistant messages with `metadata.checkpoint`), one per user message, right after
 * it, summarising the turns that answered it — so turns keep alternating (core's strict message
 * shape). The model writes them with the goal, its checkpoints and locked decisions in the prompt.
 * Older checkpoints age (1/2, 1/4, then merged into one ultra checkpoint of 1/8; a user message
 * whose only answer was merged away keeps a one-line note),
 * so checkpoints stay bounded. User, system and pinned messages stay byte-identical, unless user
 * messages outgrow their share and are folded (never the first).
 *
 * Failures: transport faults surface as the model client's typed errors (`ModelUnavailableError`,
 * `ModelResponseError`); an empty summary or a result not smaller than its input returns the input
 * unchanged with a `limitations` entry, so the caller keeps its conversation either way.
 */
export function createGoalAwareProvider(options: GoalAwareOptions = {}): ContextProviderV2 {
  return {
    specificationVersion: 'v2',
    usesModel: true,
    name: GOAL_AWARE_PROVIDER_NAME,
    description: 'Goal-aware LLM summariser: old assistant/tool turns become aging checkpoints (bounded total), user messages stay',
    async compress(call) {
      const { config, context } = v1Arguments(call);
      return outputFromResult(await compressMessages(call.messages, config, context, options));
    },
  };
}

async function compressMessages(
  messages: readonly Message[],
  config: CompressionConfig,
  context: ProviderContext,
  factoryOptions: GoalAwareOptions,
): Promise<CompactionResult> {
  const startedAt = performance.now();
  const { model, tokens } = context;
  if (!model) {
    throw new NoModelError({
      needer: GOAL_AWARE_PROVIDER_NAME,
      message:
        'goal-aware needs a model to summarise with: pass context.model (createOllamaModel / createOpenAIModel), or use a rule-based provider such as trim',
    });
  }
  context.abortSignal?.throwIfAborted();
  const options = resolveGoalAwareOptions(factoryOptions, config);
  const [ultraTarget, , , newTarget] = options.levelTargets;
  // With a limit smaller than the default 2048, keeping 2048 recent tokens could never reach it.
  const recentTokens = config.limit === undefined ? options.preserveRecent : Math.min(options.preserveRecent, Math.floor(config.limit / 2));
  const { span, recentStart } = selectSpan(messages, tokens, recentTokens);
  let summariser: Summariser | undefined;
  const finish = (output: readonly Message[], extra: { removed?: RemovedContent[]; limitations: string[]; folded?: FoldedMessage[] }) =>
    buildCompactionResult({
      input: messages,
      output,
      tokens,
      startedAt,
      ...extra,
      modelStats: {
        modelInputTokens: summariser?.modelInputTokens ?? 0,
        modelOutputTokens: summariser?.modelOutputTokens ?? 0,
        modelCalls: summariser?.modelCalls ?? 0,
      },
    });
  if (span.length === 0) {
    return finish(messages, {
      limitations: [`goal-aware: nothing to summarise: no assistant or tool turn is older than the last ${recentTokens} tokens (preserveRecent)`],
    });
  }

  const spanTokens = tokens.countMessages(span.map((position) => messages[position]!));
  if (spanTokens < MINIMUM_SPAN_TOKENS) {
    return finish(messages, {
      limitations: [
        `goal-aware: only ${spanTokens} tokens of assistant/tool turns are older than the recent window; too few to summarise (${MINIMUM_SPAN_TOKENS} needed)`,
      ],
    });
  }
  const folds = planUserFolds(messages, recentStart, config.limit, options.userShare, tokens);
  const foldedSet = new Set(folds.positions);
  const owners = segmentOwners(messages, foldedSet);
  // One checkpoint per user turn, summarising the assistant/tool turns that answered it; a group
  // too small to come back smaller as a checkpoint stays verbatim.
  const groups = groupByOwner(span, owners)
    .map((group) => ({ ...group, tokens: tokens.countMessages(group.positions.map((position) => messages[position]!)) }))
    .filter((group) => group.tokens >= MINIMUM_GROUP_TOKENS);
  const groupedTokens = groups.reduce((sum, group) => sum + group.tokens, 0);
  if (groups.length === 0 || groupedTokens < MINIMUM_SPAN_TOKENS) {
    return finish(messages, {
      limitations: [
        `goal-aware: the assistant/tool turns older than the recent window answer each user message with too few tokens to summarise (${MINIMUM_GROUP_TOKENS} needed per user message, ${MINIMUM_SPAN_TOKENS} in all)`,
      ],
    });
  }
  const quotes: FoldedQuote[] = folds.positions.map((position) => ({
    messageId: messages[position]!.id,
    position,
    text: quoteOf(messageText(messages[position]!), QUOTE_TOKENS, tokens),
  }));
  // Quotes go with the checkpoint of the user turn they now belong to; each holder gets a share of
  // the quote budget (a quarter of a new checkpoint's target).
  const quoteBudgets = (holders: readonly FoldedQuote[][]) => {
    const count = holders.filter((list) => list.length > 0).length;
    return holders.map((list) => (list.length === 0 ? 0 : Math.max(MINIMUM_QUOTE_BUDGET, Math.floor(newTarget / 4 / count))));
  };
  const planned = assignQuotes(quotes, groups, owners);
  const plannedBudgets = quoteBudgets(planned);
  const quoteTokens = planned.reduce((sum, list, index) => sum + tokens.countText(renderQuotes(list, plannedBudgets[index]!, tokens)), 0);

  summariser = new Summariser({
    model,
    tokens,
    goal: context.goal,
    modelContextTokens: await modelWindow(model, {
      configured: options.modelContextTokens,
      logger: context.logger,
      abortSignal: context.abortSignal,
      providerName: GOAL_AWARE_PROVIDER_NAME,
    }),
    temperature: options.temperature,
    ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
  });
  // A summary should compress: never ask for more than half of what the span holds. The
  // compression's target is shared by its checkpoints, in proportion to what each summarises;
  // each checkpoint beyond the first pays its header allowance out of it, so the level-3 bound holds.
  const summaryTarget = Math.max(
    groups.length * MINIMUM_SUMMARY_TOKENS,
    Math.max(ultraTarget, Math.min(newTarget - quoteTokens, Math.floor(groupedTokens / 2))) - (groups.length - 1) * CHECKPOINT_HEADER_ALLOWANCE,
  );
  const summaries: string[] = [];
  let chunked = 0;
  for (const group of groups) {
    const share = Math.max(MINIMUM_SUMMARY_TOKENS, Math.min(Math.floor(group.tokens / 2), Math.floor((summaryTarget * group.tokens) / groupedTokens)));
    const first = group.positions[0]!;
    const entries = [
      ...(group.owner >= 0 ? [{ position: group.owner, text: `[user message ${group.owner + 1} kept verbatim]` }] : []),
      ...renderSpan(messages, new Set(group.positions), first, group.positions.at(-1)!, tokens, config.maxToolResultTokens),
    ];
    summaries.push(await summariser.summariseSpan(entries, share));
    if (summariser.lastChunkCount > 1) chunked += 1;
  }
  const limitations: string[] = [];
  const kept = groups.filter((_, index) => summaries[index] !== '');
  if (kept.length === 0) {
    return finish(messages, { limitations: ['goal-aware: the model returned an empty summary; it was discarded and the conversation is unchanged'] });
  }
  if (kept.length < groups.length) {
    limitations.push(
      `goal-aware: the model returned an empty summary for ${groups.length - kept.length} of ${groups.length} user message(s); their turns stay verbatim`,
    );
  }

  const now = new Date().toISOString();
  const aging = await ageCheckpoints({ messages, summariser, levelTargets: options.levelTargets, tokens, now });
  const previousNumber = Math.max(0, ...findCheckpoints(messages).map((found) => found.checkpoint.compressionNumber ?? 0));
  const keptSummaries = summaries.filter((summary) => summary !== '');
  const holders = assignQuotes(quotes, kept, owners);
  const budgets = quoteBudgets(holders);
  const created = new Map<number, Message>();
  const summarised: number[] = [];
  const quoteHolderIds: string[] = [];
  kept.forEach((group, index) => {
    const first = group.positions[0]!;
    const summary = keptSummaries[index]!;
    const message = checkpointMessage({
      id: createMessageId('checkpoint'),
      ...(messages[first]!.timestamp !== undefined ? { timestamp: messages[first]!.timestamp } : {}),
      checkpoint: {
        id: createMessageId('cp'),
        level: 3,
        range: `Messages ${first + 1}-${group.positions.at(-1)! + 1}`,
        summary,
        createdAt: now,
        originalTokens: group.tokens,
        compressionCount: 1,
        compressionNumber: previousNumber + 1,
        ...extractFacts(
          summary,
          group.positions.map((position) => messages[position]!),
          context.goal,
        ),
      },
      quotes: holders[index]!,
      quoteBudget: budgets[index]!,
      tokens,
    });
    created.set(first, message);
    summarised.push(...group.positions);
    if (holders[index]!.length > 0) quoteHolderIds.push(message.id);
  });
  const summarisedSet = new Set(summarised);

  const output: Message[] = [];
  // A checkpoint merged away that was the only answer to its user message leaves a note, so no
  // user message follows another (the strict message shape).
  let previousTurn: 'user' | 'assistant' | undefined;
  let mergedAway: Message | undefined;
  const push = (message: Message) => {
    const turn = turnOf(message);
    if (turn === 'user' && previousTurn === 'user' && mergedAway) output.push(mergeNote(mergedAway));
    if (turn !== 'system') {
      previousTurn = turn;
      mergedAway = undefined;
    }
    output.push(message);
  };
  messages.forEach((message, position) => {
    const checkpoint = created.get(position);
    if (checkpoint) push(checkpoint);
    if (aging.dropped.has(position)) mergedAway ??= message;
    if (summarisedSet.has(position) || foldedSet.has(position) || aging.dropped.has(position)) return;
    push(aging.replaced.get(position) ?? message);
  });
  limitations.push(...aging.notes);
  if (tokens.countMessages(output) >= tokens.countMessages(messages)) {
    limitations.push('goal-aware: the summarised result was not smaller than its input; it was discarded and the conversation is unchanged');
    return finish(messages, { limitations });
  }

  const spanMessages = summarised.map((position) => messages[position]!);
  const originalTokens = tokens.countMessages(spanMessages);
  const removed = [
    ...spanMessages.map((message) => saveRemoved(config.logdir, message.id, 'message', JSON.stringify(message), tokens.countMessage(message))),
    ...aging.superseded.map((entry) => saveRemoved(config.logdir, entry.messageId, 'checkpoint-summary', entry.text, tokens.countText(entry.text))),
    ...folds.positions.map((position) => {
      const message = messages[position]!;
      return saveRemoved(config.logdir, message.id, 'user-message', JSON.stringify(message), tokens.countMessage(message));
    }),
  ];
  const ids = [...created.values()].map((message) => message.id);
  limitations.push(
    `goal-aware: ${spanMessages.length} assistant/tool messages (${originalTokens} tokens) summarised into ` +
      (ids.length === 1 ? `checkpoint ${ids[0]}` : `checkpoints ${ids.join(', ')}, each right after the user message its turns answered`) +
      (chunked > 0 ? ` (${chunked} in chunks: the turns did not fit the model's window)` : '') +
      (config.logdir ? `; originals saved under ${config.logdir}` : '; no logdir: originals are not recoverable, only their sha256 is recorded'),
  );
  const folded: FoldedMessage[] = folds.positions.map((position) => ({ messageId: messages[position]!.id, reason: USER_FOLD_REASON }));
  if (folded.length > 0) {
    limitations.push(
      `goal-aware: ${folded.length} oldest user message(s) after the first folded into checkpoint ${quoteHolderIds.join(', ')} as quotes: user messages took ${folds.userTokens} tokens, over their share of ${folds.share}`,
    );
  }
  if (config.limit !== undefined && tokens.countMessages(output) > config.limit) {
    limitations.push(
      `goal-aware: still ${tokens.countMessages(output)} tokens, over the limit of ${config.limit}: the rest is checkpoints, recent turns (${recentTokens} tokens kept), user, system and pinned messages`,
    );
  }
  return finish(output, { removed, limitations, folded });
}

/** What stands where a merged-away checkpoint was the only answer to a user message. */
export const MERGE_NOTE_TEXT = '[ollm checkpoint · merged into the level-0 checkpoint below]';

function mergeNote(checkpoint: Message): Message {
  return {
    id: createMessageId('checkpoint-note'),
    role: 'assistant',
    parts: [{ type: 'text', text: MERGE_NOTE_TEXT }],
    ...(checkpoint.timestamp !== undefined ? { timestamp: checkpoint.timestamp } : {}),
  };
}

/**
 * Where each folded user message's quote goes: the checkpoint of the user turn it now belongs to
 * (the nearest kept one before it), else the nearest new checkpoint after it, else the last.
 */
function assignQuotes(quotes: readonly FoldedQuote[], groups: readonly { owner: number; positions: number[] }[], owners: readonly number[]): FoldedQuote[][] {
  const assigned: FoldedQuote[][] = groups.map(() => []);
  for (const quote of quotes) {
    let index = groups.findIndex((group) => group.owner === owners[quote.position]);
    if (index === -1) index = groups.findIndex((group) => group.positions[0]! > quote.position);
    if (index === -1) index = groups.length - 1;
    assigned[index]!.push(quote);
  }
  return assigned;
}

function saveRemoved(logdir: string | undefined, messageId: string, kind: string, content: string, originalTokens: number): RemovedContent {
  if (logdir === undefined) return { messageId, kind, sha256: sha256Hex(content), originalTokens };
  const saved = saveRemovedContent(logdir, content);
  return { messageId, kind, sha256: saved.sha256, originalTokens, path: saved.path };
}
