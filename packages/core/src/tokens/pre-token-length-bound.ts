/**
 * Classes of a UTF-16 code unit, one byte per unit, computed on first sight: bit 1 = classified,
 * bit 2 = may be part of a run of letters and marks ([\p{L}\p{M}]), bit 4 = may be part of a run
 * of neither letters nor numbers ([^\p{L}\p{N}]). A surrogate may be either (its pair decides).
 */
const CLASSIFIED = 1;
const LETTER_RUN = 2;
const OTHER_RUN = 4;
const classes = new Uint8Array(0x10000);
const letterOrMark = /[\p{L}\p{M}]/u;
const letterOrNumber = /[\p{L}\p{N}]/u;

function classify(unit: number): number {
  let value = CLASSIFIED;
  if (unit >= 0xd800 && unit <= 0xdfff) {
    value |= LETTER_RUN | OTHER_RUN;
  } else {
    const character = String.fromCharCode(unit);
    if (letterOrMark.test(character)) value |= LETTER_RUN;
    if (!letterOrNumber.test(character)) value |= OTHER_RUN;
  }
  classes[unit] = value;
  return value;
}

/**
 * Characters a pre-token can have beyond its run of letters: a leading character (one code point,
 * up to two code units) and o200k's contraction suffix (`'ll`, `'re`, three).
 */
const LETTER_PRE_TOKEN_EXTRA = 5;
/** `\p{N}{1,3}`: three numbers, six code units if astral. */
const NUMBER_PRE_TOKEN = 6;

/**
 * An upper bound, in UTF-16 code units, on the longest pre-token gpt-tokenizer's o200k_base and
 * cl100k_base split regexes make of `text`, found in one pass with no regex and no allocation.
 *
 * Every pre-token of those regexes is (a) at most one leading character, letters and marks, and
 * at most a three-character contraction; (b) at most six code units of numbers; or (c) characters
 * that are neither letters nor numbers (punctuation, symbols, whitespace, `\r\n/`). So a pre-token
 * is no longer than the longest run of letters and marks plus five, or the longest run of
 * non-letter, non-number characters. Returns as soon as the bound exceeds `stopAbove`.
 */
export function preTokenLengthBound(text: string, stopAbove = Number.POSITIVE_INFINITY): number {
  let bound = NUMBER_PRE_TOKEN;
  let letterRun = 0;
  let otherRun = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    const value = classes[unit] || classify(unit);
    letterRun = value & LETTER_RUN ? letterRun + 1 : 0;
    otherRun = value & OTHER_RUN ? otherRun + 1 : 0;
    const longest = Math.max(letterRun + LETTER_PRE_TOKEN_EXTRA, otherRun);
    if (longest > bound) {
      bound = longest;
      if (bound > stopAbove) return bound;
    }
  }
  return bound;
}
