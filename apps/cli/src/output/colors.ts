// CommonJS, inlined into the CLI's bundle by the build (see ../commander.ts).
import picocolors from 'picocolors';
import type { CliIo } from '../cli-io.js';

export type Colors = ReturnType<typeof picocolors.createColors>;

/**
 * Colour on a terminal that can show it; never with `NO_COLOR` set (no-color.org; `--no-color`
 * sets it), `FORCE_COLOR=0` or `false`, or `TERM=dumb`; always with any other `FORCE_COLOR`.
 */
export function colorsFor(io: CliIo): Colors {
  const { env } = io;
  const force = env['FORCE_COLOR'];
  if (force === '0' || force === 'false') return picocolors.createColors(false);
  if ((env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') || env['TERM'] === 'dumb') return picocolors.createColors(false);
  if (force !== undefined) return picocolors.createColors(true);
  return picocolors.createColors(io.isTTY);
}
