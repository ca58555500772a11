import { formatInteger, OllmError } from '@ollm/core';

const marker = 'ollm.error.context-overflow';
const symbol = Symbol.for(marker);

/**
 * A request could not be made to fit the window even after every compaction stage: what is
 * left is the system prompt, pinned messages and the messages the model has not answered yet.
 * Nothing was sent. The message says by how much, and what to do.
 */
export class ContextOverflowError extends OllmError {
  private readonly [symbol] = true;
  /** Tokens the smallest request would hold (calibrated, as the budget counts them). */
  readonly requestTokens: number;
  /** The most a request may hold: the window less the reply reserve. */
  readonly requestLimit: number;
  readonly contextSize: number;
  readonly replyReserve: number;
  /** The latest message, the one that did not fit, when it is the cause. */
  readonly messageId: string | undefined;
  readonly messageTokens: number | undefined;

  constructor(input: { requestTokens: number; requestLimit: number; contextSize: number; replyReserve: number; messageId?: string; messageTokens?: number }) {
    const format = formatInteger;
    const window = `the window holds ${format(input.requestLimit)} (${format(input.contextSize)} less ${format(input.replyReserve)} kept for the reply)`;
    const cause =
      input.messageTokens !== undefined
        ? `the latest message alone is ${format(input.messageTokens)} tokens; shorten or split it, or use a larger --context-size`
        : 'what is left is the system prompt, the goal and pinned messages; shorten them or use a larger --context-size';
    super({ code: 'context-overflow', message: `The request needs ${format(input.requestTokens)} tokens but ${window}: ${cause}. Nothing was sent.` });
    this.name = 'ContextOverflowError';
    this.requestTokens = input.requestTokens;
    this.requestLimit = input.requestLimit;
    this.contextSize = input.contextSize;
    this.replyReserve = input.replyReserve;
    this.messageId = input.messageId;
    this.messageTokens = input.messageTokens;
  }

  static override isInstance(error: unknown): error is ContextOverflowError {
    return OllmError.hasMarker(error, marker);
  }
}
