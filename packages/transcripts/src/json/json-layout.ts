/** How a JSON file was laid out, so writing it back changes only what changed. */
export interface JsonLayout {
  /** Indentation unit ('' = one line). */
  readonly indent: string;
  readonly trailingNewline: boolean;
  /** Non-ASCII characters were written as `\uXXXX` (Python's `json.dumps` default). */
  readonly escapeNonAscii: boolean;
  /** One-line JSON with `", "` and `": "` between members (Python's default), not `,` and `:`. */
  readonly spacedSeparators: boolean;
}

const DEFAULT_LAYOUT: JsonLayout = { indent: '  ', trailingNewline: true, escapeNonAscii: false, spacedSeparators: false };
const layouts = new WeakMap<object, JsonLayout>();

export function detectJsonLayout(text: string): JsonLayout {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '';
  // eslint-disable-next-line no-control-regex
  const escapeNonAscii = !/[^\x00-\x7f]/.test(text) && /\\u(?:00[89a-fA-F]|0[1-9a-fA-F]|[1-9a-fA-F])[0-9a-fA-F]{2}/.test(text);
  const spacedSeparators = indent === '' && /^\s*[[{]\s*"(?:[^"\\]|\\.)*": /.test(text);
  return { indent, trailingNewline: text.endsWith('\n'), escapeNonAscii, spacedSeparators };
}

/** Remembers the layout of a parsed document (keyed by the document object). */
export function rememberLayout(document: unknown, layout: JsonLayout): void {
  if (document !== null && typeof document === 'object') layouts.set(document, layout);
}

export function layoutOf(document: unknown): JsonLayout {
  return document !== null && typeof document === 'object' ? (layouts.get(document) ?? DEFAULT_LAYOUT) : DEFAULT_LAYOUT;
}

export function stringifyJson(value: unknown, layout: JsonLayout): string {
  let text = layout.indent === '' && layout.spacedSeparators ? stringifySpaced(value) : JSON.stringify(value, null, layout.indent);
  if (layout.escapeNonAscii) {
    text = text.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  return text + (layout.trailingNewline ? '\n' : '');
}

function stringifySpaced(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => stringifySpaced(item ?? null)).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).filter(([, member]) => member !== undefined);
    return `{${members.map(([key, member]) => `${JSON.stringify(key)}: ${stringifySpaced(member)}`).join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
