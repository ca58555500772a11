import { OllmError } from './ollm-error.js';

const marker = 'ollm.error.plugin-load';
const symbol = Symbol.for(marker);

/** A plugin package could not be loaded. Discovery reports it as a warning, never a crash. */
export class PluginLoadError extends OllmError {
  private readonly [symbol] = true;
  readonly packageName: string;
  readonly path: string;

  constructor({ packageName, path, cause }: { packageName: string; path: string; cause: unknown }) {
    super({
      code: 'plugin-load',
      message: `Plugin "${packageName}" (${path}) failed to load: ${describeCause(cause)}`,
      cause,
    });
    this.name = 'PluginLoadError';
    this.packageName = packageName;
    this.path = path;
  }

  static override isInstance(error: unknown): error is PluginLoadError {
    return OllmError.hasMarker(error, marker);
  }
}

function describeCause(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
