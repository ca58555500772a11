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
  v1Arguments,
} from '@ollm/core';
import { ageCheckpoints } from './age-checkpoints.js';
import { checkpointMessage, findCheckpoints, quoteOf, renderQuotes, type FoldedQuote } from './checkpoint-message.js';
import { extractFacts } from './extract-facts.js';
import { resolveGoalAwareOptions, type GoalAwareOptions } from './goal-aware-options.js';
import { planUserFolds } from './plan-user-folds.js';
import { renderSpan } from './render-span.js';
import { selectSpan } from './select-span.js';
import { Summariser } from './summariser.js';

export const GOAL_AWARE_PROVIDER_NAME = 'goal-aware';
/** Why folded user messages are absent from the output (CompactionResult `folded`). */
export const USER_FOLD_REASON = 'user messages exceeded their share of the budget; quoted in the checkpoint';
const QUOTE_TOKENS = 80;
/** A span smaller than this cannot come back smaller as a checkpoint (header included): no model call. */
export const MINIMUM_SPAN_TOKENS = 160;

/**
 * ollm's goal-aware summariser: assistant and tool turns older than the recent window become a
 * checkpoint (an assistant message with `metadata.checkpoint`), written by the model with the goal,
 * its checkpoints and locked decisions in the prompt. Older checkpoints age (1/2, 1/4, then merged
 * into one ultra checkpoint of 1/8), so checkpoints stay bounded. User, system and pinned
 * messages stay byte-identical, unless user messages outgrow their share and are folded.
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
  const spanSet = new Set(span);
  const anchor = span.at(-1)!;
  const folds = planUserFolds(messages, recentStart, config.limit, options.userShare, tokens);
  const quotes: FoldedQuote[] = folds.positions.map((position) => ({
    messageId: messages[position]!.id,
    position,
    text: quoteOf(messageText(messages[position]!), QUOTE_TOKENS, tokens),
  }));
  const quoteBudget = quotes.length > 0 ? Math.floor(newTarget / 4) : 0;
  const quoteTokens = tokens.countText(renderQuotes(quotes, quoteBudget, tokens));

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
  const entries = renderSpan(messages, spanSet, span[0]!, anchor, tokens, config.maxToolResultTokens);
  // A summary should compress: never ask for more than half of what the span holds.
  const summaryTarget = Math.max(ultraTarget, Math.min(newTarget - quoteTokens, Math.floor(spanTokens / 2)));
  const summary = await summariser.summariseSpan(entries, summaryTarget);
  if (summary === '') {
    return finish(messages, { limitations: ['goal-aware: the model returned an empty summary; it was discarded and the conversation is unchanged'] });
  }

  const now = new Date().toISOString();
  const aging = await ageCheckpoints({ messages, summariser, levelTargets: options.levelTargets, tokens, now });
  const spanMessages = span.map((position) => messages[position]!);
  const previousNumber = Math.max(0, ...findCheckpoints(messages).map((found) => found.checkpoint.compressionNumber ?? 0));
  const originalTokens = spanTokens;
  const created = checkpointMessage({
    id: createMessageId('checkpoint'),
    ...(messages[anchor]!.timestamp !== undefined ? { timestamp: messages[anchor]!.timestamp } : {}),
    checkpoint: {
      id: createMessageId('cp'),
      level: 3,
      range: `Messages ${span[0]! + 1}-${anchor + 1}`,
      summary,
      createdAt: now,
      originalTokens,
      compressionCount: 1,
      compressionNumber: previousNumber + 1,
      ...extractFacts(summary, spanMessages, context.goal),
    },
    quotes,
    quoteBudget,
    tokens,
  });

  const foldedSet = new Set(folds.positions);
  const output: Message[] = [];
  messages.forEach((message, position) => {
    if (position === anchor) output.push(created);
    else if (spanSet.has(position) || foldedSet.has(position) || aging.dropped.has(position)) return;
    else output.push(aging.replaced.get(position) ?? message);
  });
  const limitations = [...aging.notes];
  if (tokens.countMessages(output) >= tokens.countMessages(messages)) {
    limitations.push('goal-aware: the summarised result was not smaller than its input; it was discarded and the conversation is unchanged');
    return finish(messages, { limitations });
  }

  const removed = [
    ...spanMessages.map((message) => saveRemoved(config.logdir, message.id, 'message', JSON.stringify(message), tokens.countMessage(message))),
    ...aging.superseded.map((entry) => saveRemoved(config.logdir, entry.messageId, 'checkpoint-summary', entry.text, tokens.countText(entry.text))),
    ...folds.positions.map((position) => {
      const message = messages[position]!;
      return saveRemoved(config.logdir, message.id, 'user-message', JSON.stringify(message), tokens.countMessage(message));
    }),
  ];
  limitations.push(
    `goal-aware: ${span.length} assistant/tool messages (${originalTokens} tokens) summarised into checkpoint ${created.id}` +
      (summariser.lastChunkCount > 1 ? ` in ${summariser.lastChunkCount} chunks (the span did not fit the model's window)` : '') +
      (config.logdir ? `; originals saved under ${config.logdir}` : '; no logdir: originals are not recoverable, only their sha256 is recorded'),
  );
  const folded: FoldedMessage[] = folds.positions.map((position) => ({ messageId: messages[position]!.id, reason: USER_FOLD_REASON }));
  if (folded.length > 0) {
    limitations.push(
      `goal-aware: ${folded.length} oldest user message(s) folded into checkpoint ${created.id} as quotes: user messages took ${folds.userTokens} tokens, over their share of ${folds.share}`,
    );
  }
  if (config.limit !== undefined && tokens.countMessages(output) > config.limit) {
    limitations.push(
      `goal-aware: still ${tokens.countMessages(output)} tokens, over the limit of ${config.limit}: the rest is checkpoints, recent turns (${recentTokens} tokens kept), user, system and pinned messages`,
    );
  }
  return finish(output, { removed, limitations, folded });
}

function saveRemoved(logdir: string | undefined, messageId: string, kind: string, content: string, originalTokens: number): RemovedContent {
  if (logdir === undefined) return { messageId, kind, sha256: sha256Hex(content), originalTokens };
  const saved = saveRemovedContent(logdir, content);
  return { messageId, kind, sha256: saved.sha256, originalTokens, path: saved.path };
}
