// CommonJS, inlined into the CLI's bundle by the build (see ../commander.ts).
import picocolors from 'picocolors';
import type { CliIo } from '../cli-io.js';

export type Colors = ReturnType<typeof picocolors.createColors>;

/** Colour only on a terminal, and never when NO_COLOR is set (no-color.org). */
export function colorsFor(io: CliIo): Colors {
  const noColor = io.env['NO_COLOR'] !== undefined && io.env['NO_COLOR'] !== '';
  return picocolors.createColors(io.isTTY && !noColor);
}
