import { formatInteger } from './format-number.js';

/** `1 compaction`, `2 compactions`, `1,024 messages`: English plural with an `s`. */
export function plural(count: number, word: string): string {
  return `${formatInteger(count)} ${word}${count === 1 ? '' : 's'}`;
}
