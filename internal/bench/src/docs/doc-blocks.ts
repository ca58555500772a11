/**
 * The blocks record-docs owns in a Markdown file: everything between `<!-- recorded: NAME -->`
 * and the next `<!-- /recorded -->`. The text around them is never touched.
 */
const BLOCK = /(<!-- recorded: ([a-z0-9-]+) -->\n)([\s\S]*?)(<!-- \/recorded -->)/g;

export type BlockContent = string | ((previous: string) => string);

/** The names of the blocks in `text`, in order. */
export function blockNames(text: string): string[] {
  return [...text.matchAll(BLOCK)].map((match) => match[2]!);
}

/**
 * Replaces the named blocks' content (a trailing newline is added). Throws when a named block is
 * missing, so a renamed marker cannot silently stop a recording from reaching the docs.
 */
export function replaceBlocks(text: string, blocks: Readonly<Record<string, BlockContent>>, file: string): string {
  const found = new Set<string>();
  const replaced = text.replace(BLOCK, (whole, open: string, name: string, previous: string, close: string) => {
    const content = blocks[name];
    if (content === undefined) return whole;
    found.add(name);
    const next = typeof content === 'function' ? content(previous) : content;
    return `${open}${next.replace(/\n*$/, '\n')}${close}`;
  });
  const missing = Object.keys(blocks).filter((name) => !found.has(name));
  if (missing.length > 0) throw new Error(`${file}: no block <!-- recorded: ${missing.join(' -->, <!-- recorded: ')} -->`);
  return replaced;
}

/** A fenced code block. */
export function fenced(text: string, language = ''): string {
  return `\`\`\`${language}\n${text.replace(/\n*$/, '')}\n\`\`\``;
}

/** The current content of a block, or '' when the file has none of that name. */
export function readBlock(text: string, name: string): string {
  return [...text.matchAll(BLOCK)].find((match) => match[2] === name)?.[3] ?? '';
}
