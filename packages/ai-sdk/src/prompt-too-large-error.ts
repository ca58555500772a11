import { formatInteger } from '@ollm/core';
import { ContextOverflowError } from '@ollm/runtime';

/**
 * An AI SDK call whose prompt cannot be made to fit the window: what no stage may drop (system
 * messages, the last user message, pinned messages) is over the room the call has. Nothing was
 * sent. A `ContextOverflowError` (its `isInstance` holds), with a message in the middleware's terms.
 */
export class PromptTooLargeError extends ContextOverflowError {
  /** Tokens of the tool definitions (and response schema) the call sends besides the prompt. */
  readonly toolTokens: number;
  /** The index in the prompt of the last user message, when it alone is over the room. */
  readonly messageIndex: number | undefined;

  constructor(input: {
    requestTokens: number;
    requestLimit: number;
    contextSize: number;
    replyReserve: number;
    toolTokens: number;
    messageIndex?: number;
    messageTokens?: number;
  }) {
    super({
      requestTokens: input.requestTokens,
      requestLimit: input.requestLimit,
      contextSize: input.contextSize,
      replyReserve: input.replyReserve,
      ...(input.messageIndex !== undefined ? { messageId: `m${input.messageIndex}` } : {}),
      ...(input.messageTokens !== undefined ? { messageTokens: input.messageTokens } : {}),
    });
    const format = formatInteger;
    const room =
      `the call has room for ${format(Math.max(0, input.requestLimit))}: contextSize ${format(input.contextSize)} less ${format(input.replyReserve)} for the reply` +
      ` (maxOutputTokens, else replyReserve)${input.toolTokens > 0 ? ` and ${format(input.toolTokens)} for the tool definitions` : ''}`;
    const cause =
      input.requestLimit < 1
        ? 'lower maxOutputTokens or raise contextSize'
        : input.messageTokens !== undefined && input.messageIndex !== undefined
          ? `the last user message (prompt message ${input.messageIndex}) alone is ${format(input.messageTokens)} tokens; shorten or split it, or raise contextSize`
          : 'what no compaction may drop (system messages, the last user message) is that large; shorten it or raise contextSize';
    this.message = `The prompt needs ${format(input.requestTokens)} tokens but ${room}; ${cause}. Nothing was sent.`;
    this.name = 'PromptTooLargeError';
    this.toolTokens = input.toolTokens;
    this.messageIndex = input.messageIndex;
  }
}
