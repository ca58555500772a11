import { formatInteger } from '@ollm/core';
import { ContextOverflowError } from '@ollm/runtime';

/**
 * A model call of a LangChain agent that cannot be made to fit the window: what no stage may
 * drop (the system prompt, the task, the latest human message, pinned messages) and the tool
 * definitions are over the room the call has. Nothing was sent. A `ContextOverflowError` (its
 * `isInstance` holds), with a message in the middleware's terms; LangChain hands it on as the
 * `cause` of a `MiddlewareError` that has the same message.
 */
export class RequestTooLargeError extends ContextOverflowError {
  /** Tokens the tool definitions take. */
  readonly toolTokens: number;

  constructor(input: { requestTokens: number; contextSize: number; replyReserve: number; toolTokens: number }) {
    const requestLimit = input.contextSize - input.replyReserve - input.toolTokens;
    super({ requestTokens: input.requestTokens, requestLimit, contextSize: input.contextSize, replyReserve: input.replyReserve });
    const format = formatInteger;
    const room =
      `the call has room for ${format(Math.max(0, requestLimit))}: contextSize ${format(input.contextSize)} less ${format(input.replyReserve)} for the reply` +
      ` (replyReserve, else the model's maxTokens)${input.toolTokens > 0 ? ` and ${format(input.toolTokens)} for the tool definitions` : ''}`;
    const cause =
      requestLimit < 1
        ? 'lower the reply limit, bind fewer tools or raise contextSize'
        : 'what no compaction may drop (the system prompt, the task and the latest human message) is that large; shorten it or raise contextSize';
    this.message = `The request needs ${format(input.requestTokens)} tokens but ${room}; ${cause}. Nothing was sent.`;
    this.name = 'RequestTooLargeError';
    this.toolTokens = input.toolTokens;
  }
}
