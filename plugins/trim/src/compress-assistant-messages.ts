import { messageText, withParts, type Message, type MessagePart, type TokenCounting } from '@ollm/core';
import { extractKeySentences } from './extract-key-sentences.js';
import { PLACEHOLDER_PREFIX, SHA_PREFIX_LENGTH } from './tool-result-placeholder.js';
import type { TrimWorkspace } from './trim-workspace.js';

export interface CompressAssistantMessagesOptions {
  readonly ageThreshold: number;
  readonly minTokens: number;
  readonly keepRatio: number;
}

/** Compressing a message for less than this share of its text is not worth the loss. */
const MINIMUM_SAVING = 0.1;

/**
 * Tokens of `messageText(message)`. A message with one text part (the usual case) has that part's
 * text as its text, and the part was counted with the message already: no need to tokenise it again.
 */
function countMessageText(message: Message, text: string, tokens: TokenCounting): number {
  const textParts = message.parts.filter((part) => part.type === 'text');
  return textParts.length === 1 ? tokens.countPartText(textParts[0]!) : tokens.countText(text);
}

/**
 * Phase 3: extractive compression of the text of assistant messages older than `ageThreshold`
 * positions from the end whose text has more than `minTokens` tokens, largest first, while over
 * the limit (all of them without a limit). Tool calls in those messages are left as they are.
 * The original text is saved and the new text ends with how to recover it.
 */
export function compressAssistantMessages(workspace: TrimWorkspace, options: CompressAssistantMessagesOptions): number {
  const candidates: { index: number; tokens: number }[] = [];
  const end = workspace.messages.length - options.ageThreshold;
  for (let index = 0; index < end; index++) {
    const message = workspace.messages[index]!;
    if (message.role !== 'assistant' || workspace.isProtected(index)) continue;
    const text = messageText(message);
    if (text.includes(PLACEHOLDER_PREFIX)) continue;
    const tokens = countMessageText(message, text, workspace.tokens);
    if (tokens > options.minTokens) candidates.push({ index, tokens });
  }
  candidates.sort((a, b) => b.tokens - a.tokens || a.index - b.index);

  let compressed = 0;
  for (const candidate of candidates) {
    if (!workspace.shouldContinue) break;
    const message = workspace.messages[candidate.index]!;
    const original = messageText(message);
    const summary = extractKeySentences(original, { keepRatio: options.keepRatio, tokens: workspace.tokens });
    if (workspace.tokens.countText(summary) > (1 - MINIMUM_SAVING) * candidate.tokens) continue;
    const stored = workspace.locate(original, message);
    const shortSha = stored.sha256.slice(0, SHA_PREFIX_LENGTH);
    const recovery =
      stored.path !== undefined
        ? `saved to ${stored.path} (ollm recover ${shortSha})`
        : `NOT saved (no logdir configured), not recoverable (sha256 ${shortSha})`;
    const text = `${summary}\n${PLACEHOLDER_PREFIX} Extractive summary of a longer message (${candidate.tokens} tokens); full text: ${recovery}`;
    // The new text takes the place of the first text part; the other text parts were folded into it.
    let placed = false;
    const parts: MessagePart[] = [];
    for (const part of message.parts) {
      if (part.type !== 'text') parts.push(part);
      else if (!placed) ((placed = true), parts.push({ type: 'text', text }));
    }
    if (!workspace.replace(candidate.index, withParts(message, parts))) continue;
    workspace.commit(message.id, 'assistant-text', original, candidate.tokens, stored);
    compressed++;
  }
  return compressed;
}
