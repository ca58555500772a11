import type { Key } from 'node:readline';

/**
 * What the user typed while the chat was busy, collected only to tell them it was dropped: the
 * printable characters, Enter as a newline, Backspace applied; other keys (arrows, Ctrl-…) are ignored.
 */
export class DiscardedTyping {
  private characters: string[] = [];

  addKey(text: string | undefined, key: Key | undefined): void {
    const name = key?.name;
    if (name === 'return' || name === 'enter') this.characters.push('\n');
    else if (name === 'backspace') this.characters.pop();
    else if (name === 'tab') this.characters.push('\t');
    else if (text !== undefined && !key?.ctrl && !key?.meta && !/[\x00-\x1f\x7f]/.test(text)) this.characters.push(...text);
  }

  /** A whole paste that arrived while busy. */
  addText(text: string): void {
    this.characters.push(...text);
  }

  /** The collected text trimmed (it is only shown), or undefined when nothing but whitespace was typed; starts afresh. */
  take(): string | undefined {
    const text = this.characters.join('').trim();
    this.characters = [];
    return text.length > 0 ? text : undefined;
  }
}
