import { checkpointOf, fitQuoteLines, tokenPrefix, type Checkpoint, type Message, type TokenCounting } from '@ollm/core';

/** A user message folded into a checkpoint: its position, id and (cut) text. */
export interface FoldedQuote {
  readonly messageId: string;
  readonly position: number;
  readonly text: string;
}

/** Metadata key under which a checkpoint message keeps the quotes of folded user messages. */
export const QUOTES_KEY = 'foldedUserQuotes';
/** Tokens a checkpoint message may carry beyond its level's target: header line and message overhead. */
export const CHECKPOINT_HEADER_ALLOWANCE = 40;

/**
 * The quotes of folded user messages within `budget`: the oldest (the task, usually) always, then
 * the newest that fit; the ones between are counted, so the first user turns never vanish.
 */
export function renderQuotes(quotes: readonly FoldedQuote[], budget: number, tokens: TokenCounting): string {
  if (quotes.length === 0 || budget <= 0) return '';
  const title = 'Earlier user messages, folded here (full text saved under logdir):';
  const lines = [...quotes].sort((a, b) => a.position - b.position).map((quote) => `> [user message ${quote.position + 1}] ${quote.text.replace(/\s+/g, ' ')}`);
  // The oldest quote is kept, cut to what the budget leaves when it is too long: the checkpoint bound holds.
  const { first, newest, between } = fitQuoteLines(lines, budget, tokens.countText(title) + 24, tokens);
  if (first === undefined) return '';
  return [title, first, ...(between > 0 ? [`(${between} more folded user message(s) only in logdir)`] : []), ...newest].join('\n');
}

/** The quotes an aged or merged checkpoint keeps: the oldest one and the newest up to `maximum`. */
export function keptQuotes(quotes: readonly FoldedQuote[], maximum: number): FoldedQuote[] {
  const sorted = [...quotes].sort((a, b) => a.position - b.position);
  return sorted.length <= maximum ? sorted : [sorted[0]!, ...sorted.slice(-(maximum - 1))];
}

/** A quote of a user message, cut to `maxTokens`. */
export function quoteOf(text: string, maxTokens: number, tokens: TokenCounting): string {
  const cut = tokenPrefix(text, maxTokens, tokens.tokenizer);
  return cut.length < text.length ? `${cut.trimEnd()} …` : cut;
}

/** The quotes a checkpoint message carries. */
export function quotesOf(message: Message): FoldedQuote[] {
  const quotes = message.metadata?.[QUOTES_KEY];
  return Array.isArray(quotes) ? (quotes as FoldedQuote[]) : [];
}

/**
 * The checkpoint message: an assistant message whose text is a header, the summary and the
 * folded quotes, with the complete `Checkpoint` in `metadata.checkpoint`. `currentTokens` is
 * the message's own token count.
 */
export function checkpointMessage(input: {
  readonly id: string;
  readonly timestamp?: string;
  readonly checkpoint: Omit<Checkpoint, 'currentTokens'>;
  readonly quotes: readonly FoldedQuote[];
  readonly quoteBudget: number;
  readonly tokens: TokenCounting;
}): Message {
  const { checkpoint } = input;
  const header = `[ollm checkpoint · level ${checkpoint.level} · compression ${checkpoint.compressionNumber ?? '?'} · ${checkpoint.range} · ${checkpoint.originalTokens} tokens summarised]`;
  const quotes = renderQuotes(input.quotes, input.quoteBudget, input.tokens);
  const text = [header, checkpoint.summary, ...(quotes ? [quotes] : [])].join('\n');
  const draft: Message = {
    id: input.id,
    role: 'assistant',
    parts: [{ type: 'text', text }],
    ...(input.timestamp !== undefined ? { timestamp: input.timestamp } : {}),
  };
  const currentTokens = input.tokens.countMessage(draft);
  return {
    ...draft,
    metadata: {
      checkpoint: { ...checkpoint, currentTokens } satisfies Checkpoint,
      ...(input.quotes.length > 0 ? { [QUOTES_KEY]: input.quotes } : {}),
    },
  };
}

/** Existing checkpoints of the input, with their positions, oldest compression first. */
export function findCheckpoints(messages: readonly Message[]): { position: number; message: Message; checkpoint: Checkpoint }[] {
  const found: { position: number; message: Message; checkpoint: Checkpoint }[] = [];
  messages.forEach((message, position) => {
    const checkpoint = checkpointOf(message);
    if (checkpoint && message.role === 'assistant' && typeof checkpoint.summary === 'string') found.push({ position, message, checkpoint });
  });
  return found.sort((a, b) => (a.checkpoint.compressionNumber ?? 0) - (b.checkpoint.compressionNumber ?? 0) || a.position - b.position);
}

/** The most all checkpoints of a conversation can hold: one per level plus each header allowance. */
export function checkpointTokenBound(levelTargets: readonly number[]): number {
  return levelTargets.reduce((sum, target) => sum + target + CHECKPOINT_HEADER_ALLOWANCE, 0);
}
