import type { CliIo } from '../cli-io.js';
import { formatMilliseconds } from './format-number.js';

const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const frameIntervalMs = 100;

export interface ProgressSpinner {
  /** Changes the label shown next to the spinner. */
  update(label: string): void;
  /** Clears the spinner line. */
  stop(): void;
}

/**
 * A spinner with the elapsed time on stderr, for work that can take a while. Silent when stderr
 * is not a terminal, so logs and pipes never receive control characters.
 */
export function startSpinner(io: CliIo, label: string): ProgressSpinner {
  if (!io.isTTY) return { update() {}, stop() {} };
  const started = performance.now();
  let current = label;
  let frame = 0;
  const draw = (): void => {
    const elapsed = formatMilliseconds(performance.now() - started);
    io.stderr.write(`\r\x1b[2K${frames[frame % frames.length]} ${current} (${elapsed})`);
    frame += 1;
  };
  draw();
  const timer = setInterval(draw, frameIntervalMs);
  // The spinner must never keep the process alive on its own.
  timer.unref();
  return {
    update(next) {
      current = next;
    },
    stop() {
      clearInterval(timer);
      io.stderr.write('\r\x1b[2K');
    },
  };
}
