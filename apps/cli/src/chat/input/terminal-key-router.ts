import type { Key } from 'node:readline';
import { DiscardedTyping } from './discarded-typing.js';

export interface TerminalKeyRouterOptions {
  /** Readline's own keypress handler: keys typed normally go there (line editing, Enter, Ctrl-C as readline's SIGINT). */
  readonly forward: (text: string | undefined, key: Key) => void;
  /** A whole paste, raw (line endings as the terminal sent them), once its end marker arrives while not busy. */
  readonly onPaste: (text: string) => void;
}

/** Keys that keep working while busy: Ctrl-C goes to the interrupt handler, Ctrl-D ends, Ctrl-Z suspends. */
const busyKeys = new Set(['c', 'd', 'z']);

/**
 * Sits between Node's keypress decoder and readline. Keys between `paste-start` and `paste-end`
 * are collected instead of typed, so the newlines of a paste do not each submit a line; while
 * busy, keys are dropped (and remembered for the report) instead of piling up in the line.
 */
export class TerminalKeyRouter {
  private readonly options: TerminalKeyRouterOptions;
  private busy = false;
  private pasting = false;
  private paste = '';
  private afterPaste = false;
  private readonly discarded = new DiscardedTyping();

  constructor(options: TerminalKeyRouterOptions) {
    this.options = options;
  }

  /** True from a paste's end until the next key: Enter then submits the paste as it is. */
  get enterFollowsPaste(): boolean {
    return this.afterPaste;
  }

  /** Returns what was dropped while busy (trimmed; undefined when nothing but whitespace) when busy ends. */
  setBusy(busy: boolean): string | undefined {
    const wasBusy = this.busy;
    this.busy = busy;
    return wasBusy && !busy ? this.discarded.take() : undefined;
  }

  /** A paste cut off by the end of input, so that it is not lost. */
  takeUnfinishedPaste(): string | undefined {
    if (!this.pasting) return undefined;
    this.pasting = false;
    return this.paste;
  }

  handle(text: string | undefined, key: Key | undefined): void {
    const name = key?.name;
    if (this.pasting) {
      if (name === 'paste-end') this.endPaste();
      else this.paste += text ?? key?.sequence ?? '';
      return;
    }
    if (name === 'paste-start') {
      this.pasting = true;
      this.paste = '';
      return;
    }
    if (this.busy && !(key?.ctrl && name !== undefined && busyKeys.has(name))) {
      this.discarded.addKey(text, key);
      return;
    }
    try {
      this.options.forward(text, key ?? {});
    } finally {
      this.afterPaste = false;
    }
  }

  private endPaste(): void {
    this.pasting = false;
    if (this.busy) {
      this.discarded.addText(this.paste);
      return;
    }
    this.options.onPaste(this.paste);
    this.afterPaste = true;
  }
}
