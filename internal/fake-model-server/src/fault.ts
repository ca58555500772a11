/** The faults the fake server injects on demand. */
export type FaultKind = 'refuse' | 'status-500' | 'status-429' | 'status' | 'hang' | 'malformed' | 'cut-stream' | 'empty' | 'too-long' | 'wrong-shape';

export interface Fault {
  readonly kind: FaultKind;
  /** How many requests the fault applies to (default 1), or `'always'`. Ignored by `refuse`. */
  readonly times?: number | 'always';
  /** Only requests to these paths meet (and use up) the fault; default every path. */
  readonly paths?: readonly string[];
  /** `status-429`: the `retry-after` header in seconds (default 1). */
  readonly retryAfterSeconds?: number;
  /** `status-429`: a raw `retry-after` value instead (e.g. an HTTP date). */
  readonly retryAfter?: string;
  /** `status`: the HTTP status to answer with (default 400). */
  readonly status?: number;
  /** `status`: the error message in the body. */
  readonly message?: string;
  /** `cut-stream`: chunks sent before the socket is destroyed (default 2). */
  readonly chunks?: number;
  /** `refuse`: listen again on the same port after this many ms (default: until `resume()`). */
  readonly resumeAfterMs?: number;
}

export type FaultInput = Fault | FaultKind;

interface QueuedFault {
  readonly fault: Fault;
  remaining: number;
}

/** The queue of pending faults: the head applies to the next matching requests, then the next one. */
export class FaultQueue {
  private queue: QueuedFault[] = [];

  replace(faults: readonly FaultInput[]): void {
    this.queue = faults.map((input) => {
      const fault = typeof input === 'string' ? { kind: input } : input;
      const times = fault.times ?? 1;
      return { fault, remaining: times === 'always' ? Number.POSITIVE_INFINITY : times };
    });
  }

  clear(): void {
    this.queue = [];
  }

  head(): Fault | undefined {
    return this.queue[0]?.fault;
  }

  /** Drops the head (a `refuse` ends by `resume()`, not by counting requests). */
  shift(): void {
    this.queue.shift();
  }

  /** The fault for a request to `path`, using up one of its applications. */
  take(path: string): Fault | undefined {
    const head = this.queue[0];
    if (!head || head.fault.kind === 'refuse') return undefined;
    if (head.fault.paths && !head.fault.paths.includes(path)) return undefined;
    head.remaining -= 1;
    if (head.remaining <= 0) this.queue.shift();
    return head.fault;
  }
}
