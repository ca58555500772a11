import type { Node } from 'web-tree-sitter';
import { parserFor } from '../grammar/grammar-loader.js';
import type { LanguageId } from '../grammar/language-id.js';
import { LANGUAGE_RULES, type LanguageRules } from '../grammar/language-rules.js';
import type { FoldPlan, RowState } from './fold-plan.js';

/** Statements up to this many rows stay whole; longer ones keep their first row. */
const SHORT_STATEMENT_ROWS = 2;
/** Types (structs, interfaces) up to this many rows are kept whole as signatures. */
const KEEP_WHOLE_ROWS = 40;

/** The last row a node covers; some grammars end a node at column 0 of the following row. */
function lastRowOf(node: Node): number {
  const { startPosition: start, endPosition: end } = node;
  return end.column === 0 && end.row > start.row ? end.row - 1 : end.row;
}

class TreeFolder {
  readonly states: RowState[];
  readonly trailingComments = new Map<number, number>();

  constructor(
    private readonly rules: LanguageRules,
    private readonly lines: readonly string[],
    /** A script's top-level statements are its body: they fold like one. */
    private readonly scriptBody: boolean,
  ) {
    this.states = lines.map(() => 'code');
  }

  private isDefinitionLike(type: string): boolean {
    return this.rules.definitions.has(type) || this.rules.containers.has(type);
  }

  /** Byte ranges of every definition and container (`readTree`). */
  private definitionRanges: { start: number; end: number }[] = [];

  /** True when a definition sits inside `node` (decorators, exports, templates, `if` blocks wrap them). */
  private containsDefinition(node: Node): boolean {
    const { startIndex, endIndex } = node;
    return this.definitionRanges.some((range) => range.start >= startIndex && range.end <= endIndex && (range.start !== startIndex || range.end !== endIndex));
  }

  private mark(fromRow: number, toRow: number, state: RowState): void {
    for (let row = Math.max(fromRow, 0); row <= toRow && row < this.states.length; row++) {
      // A comment row stays a comment: it goes first whatever surrounds it.
      if (this.states[row] !== 'comment') this.states[row] = state;
    }
  }

  private markComment(node: Node): void {
    const { startPosition: start, endPosition: end } = node;
    const before = this.lines[start.row]?.slice(0, start.column) ?? '';
    if (before.trim() !== '') {
      this.trailingComments.set(start.row, start.column);
      return;
    }
    // A shebang is an instruction to the system, not a comment.
    if (start.row === 0 && (this.lines[0] ?? '').startsWith('#!')) return;
    // Some grammars end a line comment at column 0 of the next row (Rust `///`).
    const lastRow = end.column === 0 && end.row > start.row ? end.row - 1 : end.row;
    for (let row = start.row; row <= lastRow && row < this.states.length; row++) this.states[row] = 'comment';
  }

  /**
   * Marks comments anywhere in the tree, whatever is folded later, and notes where definitions
   * and containers are. One `descendantsOfType` call for both: walking the tree, or every node from
   * JavaScript, costs a wasm round trip per node.
   */
  readTree(root: Node): void {
    const { comments, definitions, containers } = this.rules;
    for (const node of root.descendantsOfType([...comments, ...definitions, ...containers])) {
      if (!node) continue;
      if (comments.has(node.type)) this.markComment(node);
      else this.definitionRanges.push({ start: node.startIndex, end: node.endIndex });
    }
  }

  private isDocstring(node: Node, type: string, index: number): boolean {
    return this.rules.docstrings && index === 0 && type === 'expression_statement' && node.namedChildCount === 1 && node.namedChild(0)?.type === 'string';
  }

  /**
   * Folds the members of a module, class body or error region one by one. At the top of a
   * fragment (`sed -n` from inside a function), an indented statement is the tail of a body
   * whose header was not shown: it folds like a body. Each child's type is read once: every read
   * of a node's property is a round trip into the wasm parser.
   */
  foldMembers(parent: Node, topLevel = false): void {
    let index = 0;
    for (const child of parent.namedChildren) {
      if (!child) continue;
      const type = child.type;
      if (this.rules.comments.has(type)) continue;
      if (this.isDocstring(child, type, index)) this.mark(child.startPosition.row, lastRowOf(child), 'comment');
      else if (topLevel && this.isLooseStatement(child, type) && (child.startPosition.column > 0 || this.scriptBody)) {
        this.mark(child.startPosition.row, lastRowOf(child), 'fold');
      } else if (topLevel && type === 'ERROR') this.foldMembers(child, true);
      else this.foldMember(child, type);
      index++;
    }
  }

  /** A statement that is neither a definition, an import, nor a wrapper around a definition. */
  private isLooseStatement(node: Node, type: string): boolean {
    return !this.isDefinitionLike(type) && !this.rules.imports.has(type) && type !== 'ERROR' && !this.containsDefinition(node);
  }

  private foldMember(node: Node, type: string): void {
    if (this.rules.definitions.has(type)) return this.foldBody(node, false);
    if (this.rules.containers.has(type)) return this.foldBody(node, true);
    if (this.rules.imports.has(type)) return;
    const firstRow = node.startPosition.row;
    const lastRow = lastRowOf(node);
    if (lastRow - firstRow + 1 <= SHORT_STATEMENT_ROWS) return;
    if (this.rules.keepWhole.has(type) && lastRow - firstRow + 1 <= KEEP_WHOLE_ROWS) return;
    if (type === 'ERROR' || this.containsDefinition(node)) {
      return this.foldMembers(node);
    }
    // A long statement that defines nothing: its first row says what it is.
    this.mark(firstRow + 1, this.closingRowKept(lastRow) ? lastRow - 1 : lastRow, 'fold');
  }

  /** True when a node's last row (`lastRowOf`) is only closing punctuation (`}`, `});`, `end`). */
  private closingRowKept(lastRow: number): boolean {
    const last = this.lines[lastRow]?.trim() ?? '';
    return /^[\])}]+[;,)]*$|^end$/.test(last);
  }

  private foldBody(node: Node, isContainer: boolean): void {
    const body = node.childForFieldName('body') ?? this.lastBlockChild(node);
    const headerRow = node.startPosition.row;
    if (!body) {
      if (!isContainer) {
        const lastRow = lastRowOf(node);
        this.mark(headerRow + 1, this.closingRowKept(lastRow) ? lastRow - 1 : lastRow, 'fold');
      }
      return;
    }
    if (isContainer) return this.foldMembers(body);
    const bodyRow = body.startPosition.row;
    const opensOnHeaderLine = (this.lines[bodyRow]?.slice(0, body.startPosition.column).trim() ?? '') !== '';
    const firstFolded = opensOnHeaderLine ? bodyRow + 1 : bodyRow;
    const bodyLastRow = lastRowOf(body);
    const lastFolded = this.closingRowKept(bodyLastRow) ? bodyLastRow - 1 : bodyLastRow;
    if (firstFolded <= headerRow) return;
    this.mark(firstFolded, lastFolded, 'fold');
  }

  private lastBlockChild(node: Node): Node | null {
    for (let index = node.namedChildCount - 1; index >= 0; index--) {
      const child = node.namedChild(index);
      if (child && /block|body|statement_list|declaration_list/.test(child.type)) return child;
    }
    return null;
  }
}

/** Spaces and tabs a line starts with. */
function indentOf(line: string): number {
  let column = 0;
  while (column < line.length && (line.charCodeAt(column) === 32 || line.charCodeAt(column) === 9)) column++;
  return column;
}

/**
 * Plans the folding of `code` with the language's tree-sitter grammar. Code is dedented first so
 * that a fragment cut from inside a class (`sed -n '120,180p'`) still parses as statements.
 * With `script`, top-level statements fold too (a test script's body is its top level).
 * Undefined when no grammar is available.
 */
export async function planWithTree(code: string, language: LanguageId, options: { script?: boolean } = {}): Promise<FoldPlan | undefined> {
  const parser = await parserFor(language);
  if (!parser) return undefined;
  const lines = code.split('\n');
  const indents = lines.map(indentOf);
  let dedent = Infinity;
  lines.forEach((line, row) => {
    if (indents[row]! < dedent && line.trim() !== '') dedent = indents[row]!;
  });
  if (dedent === Infinity) dedent = 0;
  const dedented = dedent === 0 ? lines : lines.map((line, row) => line.slice(Math.min(dedent, indents[row]!)));
  const tree = parser.parse(dedent === 0 ? code : dedented.join('\n'));
  if (!tree) return undefined;
  try {
    const folder = new TreeFolder(LANGUAGE_RULES[language], dedented, options.script === true);
    folder.readTree(tree.rootNode);
    folder.foldMembers(tree.rootNode, true);
    const trailingComments = new Map<number, number>();
    for (const [row, column] of folder.trailingComments) {
      trailingComments.set(row, column + Math.min(dedent, indents[row] ?? 0));
    }
    return { states: folder.states, trailingComments, method: 'tree-sitter' };
  } finally {
    tree.delete();
  }
}
