import { createRequire } from 'node:module';
import type Picocolors from 'picocolors';

// CommonJS, required rather than imported: no ESM wrapper to build at start (see ../commander.ts).
const picocolors = createRequire(import.meta.url)('picocolors') as typeof Picocolors;
import type { CliIo } from '../cli-io.js';

export type Colors = ReturnType<typeof picocolors.createColors>;

/** Colour only on a terminal, and never when NO_COLOR is set (no-color.org). */
export function colorsFor(io: CliIo): Colors {
  const noColor = io.env['NO_COLOR'] !== undefined && io.env['NO_COLOR'] !== '';
  return picocolors.createColors(io.isTTY && !noColor);
}
