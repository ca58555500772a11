/** How a JSON file was laid out, so writing it back changes only what changed. */
export interface JsonLayout {
  /** Indentation unit ('' = one line). */
  readonly indent: string;
  readonly trailingNewline: boolean;
  /** Non-ASCII characters were written as `\uXXXX` (Python's `json.dumps` default). */
  readonly escapeNonAscii: boolean;
}

const DEFAULT_LAYOUT: JsonLayout = { indent: '  ', trailingNewline: true, escapeNonAscii: false };
const layouts = new WeakMap<object, JsonLayout>();

export function detectJsonLayout(text: string): JsonLayout {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '';
  // eslint-disable-next-line no-control-regex
  const escapeNonAscii = !/[^\x00-\x7f]/.test(text) && /\\u(?:00[89a-fA-F]|0[1-9a-fA-F]|[1-9a-fA-F])[0-9a-fA-F]{2}/.test(text);
  return { indent, trailingNewline: text.endsWith('\n'), escapeNonAscii };
}

/** Remembers the layout of a parsed document (keyed by the document object). */
export function rememberLayout(document: unknown, layout: JsonLayout): void {
  if (document !== null && typeof document === 'object') layouts.set(document, layout);
}

export function layoutOf(document: unknown): JsonLayout {
  return document !== null && typeof document === 'object' ? (layouts.get(document) ?? DEFAULT_LAYOUT) : DEFAULT_LAYOUT;
}

export function stringifyJson(value: unknown, layout: JsonLayout): string {
  let text = JSON.stringify(value, null, layout.indent);
  if (layout.escapeNonAscii) {
    text = text.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  return text + (layout.trailingNewline ? '\n' : '');
}
