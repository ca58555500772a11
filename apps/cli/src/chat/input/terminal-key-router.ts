import type { Key } from 'node:readline';

export interface TerminalKeyRouterOptions {
  /** Readline's own keypress handler: keys typed normally go there (line editing, Enter, Ctrl-C as readline's SIGINT). */
  readonly forward: (text: string | undefined, key: Key) => void;
  /** A whole paste, raw (line endings as the terminal sent them), once its end marker arrives while not busy. */
  readonly onPaste: (text: string) => void;
}

/** Keys that keep working while busy: Ctrl-C goes to the interrupt handler, Ctrl-D ends, Ctrl-Z suspends. */
const busyKeys = new Set(['c', 'd', 'z']);

/** Type-ahead held at most (keys and pastes): past it, the oldest go first. */
const HELD_LIMIT = 100_000;

/** A key or a whole paste typed while busy, replayed as it came once the prompt is back. */
type HeldInput = { readonly kind: 'key'; readonly text: string | undefined; readonly key: Key } | { readonly kind: 'paste'; readonly text: string };

/**
 * Sits between Node's keypress decoder and readline. Keys between `paste-start` and `paste-end`
 * are collected instead of typed, so the newlines of a paste do not each submit a line; while
 * busy (a reply streams), keys and pastes are held instead of echoed into the reply, and replayed
 * as they came when the prompt is back (`replayHeld`): type-ahead, as shells keep it.
 */
export class TerminalKeyRouter {
  private readonly options: TerminalKeyRouterOptions;
  private busy = false;
  private pasting = false;
  private paste = '';
  private afterPaste = false;
  private held: HeldInput[] = [];

  constructor(options: TerminalKeyRouterOptions) {
    this.options = options;
  }

  /** True from a paste's end until the next key: Enter then submits the paste as it is. */
  get enterFollowsPaste(): boolean {
    return this.afterPaste;
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
  }

  /** True when keys typed while busy wait to be replayed. */
  get holding(): boolean {
    return this.held.length > 0;
  }

  /** Types what was held while busy, in order, as if typed now: Enter submits, a paste inserts whole. */
  replayHeld(): void {
    const held = this.held;
    this.held = [];
    for (const input of held) {
      if (input.kind === 'paste') {
        this.options.onPaste(input.text);
        this.afterPaste = true;
      } else this.handle(input.text, input.key);
    }
  }

  private hold(input: HeldInput): void {
    this.held.push(input);
    if (this.held.length > HELD_LIMIT) this.held.splice(0, this.held.length - HELD_LIMIT);
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
      this.hold({ kind: 'key', text, key: key ?? {} });
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
      this.hold({ kind: 'paste', text: this.paste });
      return;
    }
    this.options.onPaste(this.paste);
    this.afterPaste = true;
  }
}
