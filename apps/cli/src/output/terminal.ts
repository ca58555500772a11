import type { CliIo } from '../cli-io.js';

/**
 * Whether stderr is a terminal that can be drawn on (a spinner, a line cleared and written
 * again): a TTY whose `TERM` is not `dumb` (Emacs shells, some CI logs), which shows escapes raw.
 */
export function drawsOnTerminal(io: CliIo): boolean {
  return io.isTTY && io.env['TERM'] !== 'dumb';
}
