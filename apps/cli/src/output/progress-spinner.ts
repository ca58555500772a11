import type { CliIo, OutputStream } from '../cli-io.js';
import { formatMilliseconds } from './format-number.js';
import { drawsOnTerminal } from './terminal.js';

const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const frameIntervalMs = 100;
const clearLine = '\r\x1b[2K';

export interface ProgressSpinner {
  /** Changes the label shown next to the spinner. */
  update(label: string): void;
  /** Clears the spinner line and stops redrawing until `resume()`; nothing when not drawn. */
  pause(): void;
  /**
   * Draws again after `pause()`. It draws on the cursor's line, clearing it first, so call it
   * only after a complete line (ending with a newline) was printed.
   */
  resume(): void;
  /** Clears the spinner line if it is drawn; idempotent, and silent once paused. */
  stop(): void;
}

interface RunningSpinner {
  readonly spinner: ProgressSpinner;
  readonly drawing: () => boolean;
}

/** The spinners running on each stream, so that whatever prints next can clear them first. */
const running = new WeakMap<OutputStream, Set<RunningSpinner>>();

/**
 * Clears every spinner drawn on the io's stderr, so the next line printed (on stdout or stderr,
 * the same terminal) starts on a clean line instead of after a spinner frame. The spinners stay
 * quiet until stopped or resumed; the returned function resumes the ones this call paused.
 */
export function clearSpinners(io: CliIo): () => void {
  const paused = [...(running.get(io.stderr) ?? [])].filter((entry) => entry.drawing()).map((entry) => entry.spinner);
  for (const spinner of paused) spinner.pause();
  return () => {
    for (const spinner of paused) spinner.resume();
  };
}

/**
 * A spinner with the elapsed time on stderr, for work that can take a while. Silent when stderr
 * is not a terminal, so logs and pipes never receive control characters.
 */
export function startSpinner(io: CliIo, label: string): ProgressSpinner {
  if (!drawsOnTerminal(io)) return { update() {}, pause() {}, resume() {}, stop() {} };
  const started = performance.now();
  let current = label;
  let frame = 0;
  let state: 'drawing' | 'paused' | 'stopped' = 'drawing';
  let timer: NodeJS.Timeout | undefined;
  const draw = (): void => {
    const elapsed = formatMilliseconds(performance.now() - started);
    io.stderr.write(`${clearLine}${frames[frame % frames.length]} ${current} (${elapsed})`);
    frame += 1;
  };
  const startDrawing = (): void => {
    draw();
    timer = setInterval(draw, frameIntervalMs);
    // The spinner must never keep the process alive on its own.
    timer.unref();
  };
  const erase = (): void => {
    clearInterval(timer);
    io.stderr.write(clearLine);
  };
  const spinner: ProgressSpinner = {
    update(next) {
      current = next;
    },
    pause() {
      if (state !== 'drawing') return;
      state = 'paused';
      erase();
    },
    resume() {
      if (state !== 'paused') return;
      state = 'drawing';
      startDrawing();
    },
    stop() {
      if (state === 'stopped') return;
      // A paused spinner is already off the screen; clearing again could erase someone else's text.
      if (state === 'drawing') erase();
      state = 'stopped';
      running.get(io.stderr)?.delete(entry);
    },
  };
  const entry: RunningSpinner = { spinner, drawing: () => state === 'drawing' };
  running.set(io.stderr, (running.get(io.stderr) ?? new Set<RunningSpinner>()).add(entry));
  startDrawing();
  return spinner;
}
