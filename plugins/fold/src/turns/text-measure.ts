import type { MessagePart } from '@ollm/core';
import type { ListEnd } from '../digest/names-list-tokens.js';

/**
 * What a rendering writes, measured as it is written. A text made of fixed words and a list of
 * names (`names: a, b, c`) costs the fixed words and the names' own counts, kept from one
 * rendering to the next, so a digest whose names changed is not read again to be counted; and it
 * shows the names its fixed words show and those listed (no identifier spans `, ` or a line break).
 */
export interface TextMeasure {
  /** Tokens of `lead` (ending with a colon), then ` a, b, c`, then `end`; undefined when the counting does not add up. */
  listed(lead: string, names: readonly string[], end: ListEnd): number | undefined;
  /** Tokens of a text written whole; undefined when texts are not measured (the message is counted instead). */
  text(text: string): number | undefined;
  /** The identifiers a text mentions. */
  identifiers(text: string): readonly string[];
  /** What a written part costs (the tokens of its text, when known) and the names it shows. */
  note(part: MessagePart, tokens: number | undefined, names: readonly string[]): void;
}
