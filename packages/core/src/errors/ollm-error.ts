const marker = 'ollm.error';
const symbol = Symbol.for(marker);

/**
 * Base class of every error ollm throws. `isInstance` works across duplicate copies of this
 * package (where `instanceof` fails) because it checks a global `Symbol.for` marker.
 */
export class OllmError extends Error {
  private readonly [symbol] = true;
  /** Machine-readable error kind, e.g. `no-such-provider`. */
  readonly code: string;

  constructor({ message, code, cause }: { message: string; code: string; cause?: unknown }) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'OllmError';
    this.code = code;
  }

  static isInstance(error: unknown): error is OllmError {
    return OllmError.hasMarker(error, marker);
  }

  protected static hasMarker(error: unknown, markerName: string): boolean {
    if (error == null || typeof error !== 'object') return false;
    const markerSymbol = Symbol.for(markerName);
    return markerSymbol in error && (error as Record<symbol, unknown>)[markerSymbol] === true;
  }
}
