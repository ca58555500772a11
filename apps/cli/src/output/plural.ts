import { formatInteger } from './format-number.js';

/** `1 compression`, `2 compressions`, `1,024 messages`: English plural with an `s`. */
export function plural(count: number, word: string): string {
  return `${formatInteger(count)} ${word}${count === 1 ? '' : 's'}`;
}
