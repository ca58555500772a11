import { OllmError } from '@ollm/core';

const marker = 'ollm.error.no-reply';
const symbol = Symbol.for(marker);

/**
 * A chat ended without a single reply although messages were sent: every one failed (the server
 * answered errors, was unreachable, replied nothing, or the message could not fit the window).
 * The CLI exits 4, or 3 when every failure was an unreachable server (docs/cli.md).
 */
export class NoReplyError extends OllmError {
  private readonly [symbol] = true;
  /** Messages sent (or refused as too large) that got no reply. */
  readonly failed: number;
  /** True when every failure was the model server being unreachable (`ModelUnavailableError`). */
  readonly unreachable: boolean;

  constructor({ failed, unreachable }: { failed: number; unreachable: boolean }) {
    super({
      code: 'no-reply',
      message: `no reply in this session: ${failed === 1 ? 'the one message' : `all ${failed} messages`} sent to the model failed${unreachable ? ' (the model server could not be reached)' : ''}; the session is saved`,
    });
    this.name = 'NoReplyError';
    this.failed = failed;
    this.unreachable = unreachable;
  }

  static override isInstance(error: unknown): error is NoReplyError {
    return OllmError.hasMarker(error, marker);
  }
}
