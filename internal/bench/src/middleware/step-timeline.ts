/** What the middleware did to a step's model call; `plain`: no middleware (the model as it came). */
export type StepKind = 'plain' | 'fits' | 'reused' | 'compacted';
/** The order kinds are reported in. */
export const STEP_KINDS: readonly StepKind[] = ['plain', 'fits', 'reused', 'compacted'];

/** One step of an agent loop that got its answer. */
export interface StepSample {
  /** 1-based: the model call's number in its run. */
  readonly step: number;
  readonly kind: StepKind;
  /** From this model call's start to the next one's (or to the loop's end): the model call, the tool, the framework. */
  readonly stepMs: number;
  /** The model call as the framework sees it: the middleware's work, the request, the reply parsed. */
  readonly modelCallMs: number;
  /** Time inside the middleware itself (its hook less the call it wraps); undefined without a middleware. */
  readonly middlewareMs: number | undefined;
}

/** A model call under way; the middleware timer sets `middlewareMs`. */
export interface StepCall {
  readonly started: number;
  ended?: number;
  kind: StepKind;
  middlewareMs?: number;
}

/**
 * The model calls of one loop as they happen: `start` when the framework calls the model, `end`
 * when the answer is back, then `finish` once the loop returned or threw. A call that never ended
 * (the server refused it) is the refused step, and is not a sample.
 */
export class StepTimeline {
  readonly #calls: StepCall[] = [];
  readonly #wrapped: boolean;

  constructor(wrapped: boolean) {
    this.#wrapped = wrapped;
  }

  /** A model call begins (before the middleware runs); returns the call to annotate. */
  start(): StepCall {
    const call: StepCall = { started: performance.now(), kind: this.#wrapped ? 'fits' : 'plain' };
    this.#calls.push(call);
    return call;
  }

  /** The latest call's answer is back. */
  end(): void {
    const call = this.#calls.at(-1);
    if (call) call.ended = performance.now();
  }

  /** The middleware reported the latest call's action (`reused`, `compacted`; no report: it fitted). */
  mark(kind: StepKind): void {
    const call = this.#calls.at(-1);
    if (call) call.kind = kind;
  }

  /** The samples of the calls that were answered, the loop having ended `now`; and the call that was not, if any. */
  finish(now = performance.now()): { readonly samples: StepSample[]; readonly unansweredStep: number | undefined } {
    const samples: StepSample[] = [];
    let unansweredStep: number | undefined;
    for (const [index, call] of this.#calls.entries()) {
      if (call.ended === undefined) {
        unansweredStep ??= index + 1;
        continue;
      }
      const next = this.#calls[index + 1]?.started ?? now;
      samples.push({
        step: index + 1,
        kind: call.kind,
        stepMs: next - call.started,
        modelCallMs: call.ended - call.started,
        middlewareMs: this.#wrapped ? (call.middlewareMs ?? 0) : undefined,
      });
    }
    return { samples, unansweredStep };
  }
}
