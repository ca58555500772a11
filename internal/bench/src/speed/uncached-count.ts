import { MESSAGE_OVERHEAD_TOKENS, TOOL_CALL_OVERHEAD_TOKENS, partText, type Message, type Tokenizer } from '@ollm/core';

/**
 * A message's tokens as core's `TokenCounter.countMessage` counts them (4 per message, its name,
 * every part's text, 3 per tool call), every text handed to the tokenizer itself: no cache by
 * object or by content, so each call tokenises as a counter written from scratch would.
 */
export function uncachedMessageTokens(message: Message, tokenizer: Tokenizer): number {
  let total = MESSAGE_OVERHEAD_TOKENS;
  if (message.name) total += tokenizer.countTokens(message.name);
  for (const part of message.parts) {
    total += tokenizer.countTokens(partText(part));
    if (part.type === 'tool-call') total += TOOL_CALL_OVERHEAD_TOKENS;
  }
  return total;
}
