import type { ChatInput } from './chat-input.js';
import { splitContinuation } from './line-continuation.js';

/**
 * The lines of one input that is not finished yet: lines ended by a newline inside a paste, and
 * lines continued with a trailing backslash. A line ended by Enter (or a piped line) without a
 * continuation finishes it.
 */
export class InputDraft {
  private rows: string[] = [];
  private pasted = false;
  private continued = false;

  /** True while nothing has been collected (the primary prompt shows). */
  get isEmpty(): boolean {
    return this.rows.length === 0 && !this.pasted;
  }

  /** A line a paste's newline ended: kept exactly, and the input is not finished. */
  addPastedRow(row: string): void {
    this.rows.push(row);
    this.pasted = true;
  }

  /** A paste without a newline went into the line being edited: the input still counts as pasted. */
  markPasted(): void {
    this.pasted = true;
  }

  /**
   * A line ended by Enter. Returns the finished input, or undefined when a trailing backslash
   * continues it. `verbatim` (Enter right after a paste) keeps the line as pasted, backslashes included.
   */
  addLine(line: string, verbatim = false): ChatInput | undefined {
    const split = verbatim ? { text: line, continues: false } : splitContinuation(line);
    this.rows.push(split.text);
    if (split.continues) {
      this.continued = true;
      return undefined;
    }
    return this.take();
  }

  /** What was collected, as an input (at the end of input), and a fresh draft; undefined when empty. */
  take(): ChatInput | undefined {
    if (this.isEmpty) return undefined;
    const text = this.rows.join('\n').replace(/\n+$/, '');
    const source = this.pasted ? 'paste' : this.continued ? 'continued' : 'line';
    this.clear();
    return { text, source };
  }

  clear(): void {
    this.rows = [];
    this.pasted = false;
    this.continued = false;
  }
}
