import { OllmError } from '@ollm/core';

const marker = 'ollm.error.session-in-use';
const symbol = Symbol.for(marker);

/** Another running process holds the session's lock: two chats would interleave its history. */
export class SessionInUseError extends OllmError {
  private readonly [symbol] = true;
  readonly sessionId: string;
  /** The pid of the process holding the session. */
  readonly pid: number;

  constructor({ sessionId, pid }: { sessionId: string; pid: number }) {
    super({
      code: 'session-in-use',
      message: `Session ${sessionId} is open in another ollm (pid ${pid}); end that chat first, or pass --force if it is not running.`,
    });
    this.name = 'SessionInUseError';
    this.sessionId = sessionId;
    this.pid = pid;
  }

  static override isInstance(error: unknown): error is SessionInUseError {
    return OllmError.hasMarker(error, marker);
  }
}
