/**
 * Text quoted into a model prompt as data. Summariser prompts put what they quote from a
 * conversation (messages, tool outputs, goal text from markers, earlier summaries) inside a data
 * block (`<conversation>` … `</conversation>`) and head each message with a line of their own
 * (`[assistant message 3]`). Quoted text must be able to do neither: the functions here escape,
 * in it, every lookalike of a block's delimiter and of a message header, so a block ends only
 * where the prompt ends it and holds only the headers the prompt wrote.
 *
 * A lookalike is read as a reader (or a model) would read it: case ignored, Unicode compatibility
 * forms folded (NFKC: `＜／ｃｏｎｖｅｒｓａｔｉｏｎ＞` is `</conversation>`), whitespace of any kind and
 * invisible format characters (zero-width space, BOM, bidi controls) skipped. Letters from other
 * scripts that merely look Latin (a Cyrillic `о`) are not folded. The escape replaces the one
 * opening character (`<` -> `‹`, `[` -> `⟦`); the rest of the text is kept as it is. The work is
 * linear in the text: each character is looked at from at most one opening character.
 */

/** The data blocks ollm's summariser prompts use. */
export const DATA_BLOCK_NAMES: readonly string[] = ['conversation', 'goal'];

/** The characters NFKC folds to `<` and to `[` (every one, checked in the test). */
const ANGLE_OPENERS = new Set(['<', '\uFE64', '\uFF1C']);
const BRACKET_OPENERS = new Set(['[', '\uFE47', '\uFF3B']);
const ESCAPED_ANGLE = '‹';
const ESCAPED_BRACKET = '⟦';

/** The roles a header names, `part` (merged summaries) and `pinned` (goal-aware's kept messages). */
const HEADER = /^ ?(?:pinned )?(?:user|assistant|system|tool|developer|function)(?![a-z0-9])|^ ?part ?\d/;
/** Enough folded characters to decide a header: `pinned assistant` and a boundary. */
const HEADER_LOOKAHEAD = 24;

const INVISIBLE = /[\s\p{Cf}]/gu;
const FORMAT = /\p{Cf}/gu;
const SPACES = /\s+/gu;

/** One character as a reader sees it: NFKC, lower case, format characters dropped (ASCII fast). */
function fold(character: string): string {
  const code = character.charCodeAt(0);
  if (character.length === 1 && code < 0x80) return code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : character;
  return character.normalize('NFKC').toLowerCase().replace(FORMAT, '');
}

/**
 * True when the text after position `start` (the character after an opener) reads as a block
 * delimiter: optional `/`, then one of `names`, whitespace and format characters ignored.
 */
function readsAsDelimiter(text: string, start: number, targets: readonly string[]): boolean {
  let read = '';
  for (let index = start; index < text.length;) {
    const code = text.codePointAt(index)!;
    const character = String.fromCodePoint(code);
    index += character.length;
    const folded = fold(character).replace(INVISIBLE, '');
    if (folded.length === 0) continue;
    read += folded;
    let open = false;
    for (const target of targets) {
      if (read.startsWith(target)) return true;
      if (target.startsWith(read)) open = true;
    }
    if (!open) return false;
  }
  return false;
}

/** True when the text after `start` (the character after a `[`) reads as a message header. */
function readsAsHeader(text: string, start: number): boolean {
  let read = '';
  for (let index = start; index < text.length && read.length < HEADER_LOOKAHEAD;) {
    const code = text.codePointAt(index)!;
    const character = String.fromCodePoint(code);
    index += character.length;
    const folded = fold(character).replace(SPACES, ' ');
    if (folded.length === 0) continue;
    for (const piece of folded) {
      if (piece === ' ') {
        if (!read.endsWith(' ')) read += ' ';
      } else read += piece;
    }
    // Headers are words, digits and spaces: anything else decides it (the boundary after a role).
    if (!/^[a-z0-9 ]*$/.test(folded)) break;
  }
  return HEADER.test(read);
}

function delimiterTargets(names: readonly string[]): string[] {
  return names.flatMap((name) => [name.toLowerCase(), `/${name.toLowerCase()}`]);
}

function escape(text: string, names: readonly string[], headers: boolean): string {
  const targets = delimiterTargets(names);
  let result = '';
  let copied = 0;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index]!;
    const angle = ANGLE_OPENERS.has(character);
    const bracket = headers && BRACKET_OPENERS.has(character);
    if (!angle && !bracket) continue;
    const escaped = angle ? readsAsDelimiter(text, index + 1, targets) : readsAsHeader(text, index + 1);
    if (!escaped) continue;
    result += text.slice(copied, index) + (angle ? ESCAPED_ANGLE : ESCAPED_BRACKET);
    copied = index + 1;
  }
  return copied === 0 ? text : result + text.slice(copied);
}

/**
 * Escapes, in text quoted from a conversation, every lookalike of a data block's delimiter
 * (`</conversation >`, `< /Conversation>`, `<\u200b/goal>`, fullwidth forms) and of a message
 * header (`[user message 2]`, `[ Assistant 3]`, `[pinned tool message 4 kept verbatim]`,
 * `[part 2]`). Put it on the content only, never on the headers a prompt writes itself.
 */
export function escapeQuotedText(text: string, names: readonly string[] = DATA_BLOCK_NAMES): string {
  return escape(text, names, true);
}

/** Escapes only the delimiter lookalikes: for a block body whose headers the prompt wrote itself. */
export function escapeDelimiterLookalikes(text: string, names: readonly string[] = DATA_BLOCK_NAMES): string {
  return escape(text, names, false);
}

/**
 * A data block: `<name>`, the body, `</name>`, each on its own lines, with every delimiter
 * lookalike in the body escaped (also those of the other blocks in `names`). The body's quoted
 * content should have been escaped with `escapeQuotedText` before the prompt added its headers.
 */
export function dataBlock(name: string, body: string, names: readonly string[] = DATA_BLOCK_NAMES): string {
  const all = names.includes(name) ? names : [...names, name];
  return `<${name}>\n${escapeDelimiterLookalikes(body, all)}\n</${name}>`;
}
