import { fitQuoteLines, type Message, messageText, type TokenCounting, tokenPrefix } from '@ollm/core';

/** A user message the window guard folded out of the context, kept as a quote in the system message. */
export interface FoldedUserQuote {
  readonly messageId: string;
  readonly text: string;
  readonly timestamp?: string;
}

/** The first folded message is usually the task: it keeps more of its text than later ones. */
const FIRST_QUOTE_TOKENS = 200;
const QUOTE_TOKENS = 80;
const TITLE = 'Earlier user messages, folded out of the conversation to fit the window (full text in the session history):';

export function quoteUserMessage(message: Message, position: number, tokens: TokenCounting): FoldedUserQuote {
  const text = messageText(message).replace(/\s+/g, ' ').trim();
  const cut = tokenPrefix(text, position === 0 ? FIRST_QUOTE_TOKENS : QUOTE_TOKENS, tokens.tokenizer);
  return { messageId: message.id, text: cut.length < text.length ? `${cut.trimEnd()} …` : cut, ...(message.timestamp ? { timestamp: message.timestamp } : {}) };
}

/**
 * The quotes block of the system message, within `budget` tokens: the first quote (the task, cut to fit),
 * then the newest that fit; the ones between are counted, never silently gone. When not even the
 * first fits (the request needs the room), one line says how many were folded.
 */
export function renderFoldedQuotes(quotes: readonly FoldedUserQuote[], budget: number, tokens: TokenCounting): string {
  if (quotes.length === 0) return '';
  const { first, newest, between } = fitQuoteLines(
    quotes.map((quote) => `> ${quote.text}`),
    budget,
    tokens.countText(TITLE) + 16,
    tokens,
  );
  if (first === undefined) {
    const count = `(${quotes.length} earlier user message${quotes.length === 1 ? ' was' : 's were'} folded out to fit the window; they are in the session history.)`;
    return tokens.countText(count) + 8 <= budget ? count : '';
  }
  return [TITLE, first, ...(between > 0 ? [`> (${between} more folded message${between === 1 ? '' : 's'}, in the session history)`] : []), ...newest].join(
    '\n',
  );
}
