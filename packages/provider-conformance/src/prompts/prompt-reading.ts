import fc from 'fast-check';

/**
 * How a reader (a model) sees a prompt, for tests of the summarisers' data blocks: written on its
 * own, not with the escaper's code, so a test checks the escaping rather than repeating it.
 */

/** The text as a reader sees it: NFKC, lower case, no whitespace or format characters at all. */
export function readerText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\p{Cf}]/gu, '');
}

/** How many times `needle` occurs in `text`. */
export function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/** Matches of `header` (a global pattern) in `text` as a reader takes it: NFKC, lower case, format characters ignored. */
export function readerHeaders(text: string, header: RegExp): number {
  const folded = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\p{Cf}/gu, '');
  return folded.match(header)?.length ?? 0;
}

/** Text made of random pieces, delimiter and header lookalikes (`lookalikes`) and the characters they are built of (`pieces`). */
export function quotedContentArbitrary(lookalikes: readonly string[], pieces: readonly string[]): fc.Arbitrary<string> {
  return fc
    .array(
      fc.oneof(
        { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
        { weight: 2, arbitrary: fc.constantFrom(...lookalikes) },
        { weight: 1, arbitrary: fc.constantFrom(...pieces) },
      ),
      { maxLength: 10 },
    )
    .map((parts) => parts.join(''));
}
