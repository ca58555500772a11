import { TokenCounter, createTokenizer, type Checkpoint, type Message } from '@ollm/core';

/**
 * Checkpoints survive a transcript file through the text every format keeps, not through a field
 * (the Anthropic API refuses unknown fields, and a plain chat file has none to spare). A checkpoint
 * message (goal-aware's) begins with its header line, then the summary, then the quotes of folded
 * user messages:
 *
 * ```
 * [ollm checkpoint · level 2 · compression 3 · Messages 12-48 · 5120 tokens summarised]
 * <summary>
 * Earlier user messages, folded here (full text saved under logdir):
 * > [user message 4] <quote>
 * ```
 *
 * Reading an assistant message that begins so gives it `metadata.checkpoint` (and
 * `metadata.foldedUserQuotes`) again, so compacting a compacted file ages its checkpoints and the
 * rule-based providers leave them alone. Writing leaves those two keys out of the file: the text
 * holds them. What the header does not carry comes back as: id `cp-<message id>`, createdAt the
 * message's timestamp (else empty), compressionCount 1, no keyDecisions / filesModified / nextSteps.
 */
export const CHECKPOINT_HEADER = /^\[ollm checkpoint · level ([0-3]) · compression (\d+|\?) · (.+) · (\d+) tokens summarised\]$/;
export const FOLDED_QUOTES_TITLE = 'Earlier user messages, folded here (full text saved under logdir):';
/** Metadata keys that live in a checkpoint message's text: restored on read, not written as fields. */
export const CHECKPOINT_METADATA_KEYS: readonly string[] = ['checkpoint', 'foldedUserQuotes'];

const QUOTE_LINE = /^> \[user message (\d+)\] (.*)$/;

let counter: TokenCounter | undefined;

function headerOf(message: Message): RegExpExecArray | undefined {
  if (message.role !== 'assistant') return undefined;
  const first = message.parts[0];
  if (first?.type !== 'text') return undefined;
  return CHECKPOINT_HEADER.exec(first.text.split('\n', 1)[0]!) ?? undefined;
}

/** The message with `metadata.checkpoint` restored from its header line, or the message itself. */
export function restoreCheckpoint(message: Message): Message {
  if (message.metadata?.['checkpoint'] !== undefined) return message;
  const header = headerOf(message);
  if (!header) return message;
  const lines = (message.parts[0] as { text: string }).text.split('\n').slice(1);
  const titleAt = lines.indexOf(FOLDED_QUOTES_TITLE);
  const summary = (titleAt === -1 ? lines : lines.slice(0, titleAt)).join('\n').trim();
  const quotes = (titleAt === -1 ? [] : lines.slice(titleAt + 1)).flatMap((line) => {
    const quote = QUOTE_LINE.exec(line);
    return quote ? [{ messageId: `folded-user-message-${quote[1]}`, position: Number(quote[1]) - 1, text: quote[2]! }] : [];
  });
  const [, level, number, range, original] = header;
  counter ??= new TokenCounter(createTokenizer('o200k_base'));
  const checkpoint: Checkpoint = {
    id: `cp-${message.id}`,
    level: Number(level) as Checkpoint['level'],
    range: range!,
    summary,
    createdAt: message.timestamp ?? '',
    originalTokens: Number(original),
    currentTokens: counter.countMessage(message),
    compressionCount: 1,
    ...(number !== '?' ? { compressionNumber: Number(number) } : {}),
  };
  return { ...message, metadata: { ...message.metadata, checkpoint, ...(quotes.length > 0 ? { foldedUserQuotes: quotes } : {}) } };
}

/** The message without the metadata its checkpoint header already carries (so writers do not add it as fields). */
export function withoutCheckpointMetadata(message: Message): Message {
  if (!message.metadata || !headerOf(message) || !CHECKPOINT_METADATA_KEYS.some((key) => key in message.metadata!)) return message;
  const metadata = Object.fromEntries(Object.entries(message.metadata).filter(([key]) => !CHECKPOINT_METADATA_KEYS.includes(key)));
  const { metadata: _dropped, ...rest } = message;
  return Object.keys(metadata).length > 0 ? { ...rest, metadata } : rest;
}
