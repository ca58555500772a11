import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Parser } from 'web-tree-sitter';
import type { LanguageId } from './language-id.js';
import { LANGUAGE_RULES } from './language-rules.js';

type TreeSitter = typeof import('web-tree-sitter');

/** The tree-sitter runtime, imported and started on the first grammar needed, not when the plugin loads. */
let runtime: Promise<TreeSitter> | undefined;
let folder: string | undefined;
const parsers = new Map<LanguageId, Promise<Parser | undefined>>();
/** Whether a grammar's file is there, by language: asked without loading the grammar. */
const present = new Map<LanguageId, boolean>();

function grammarFolder(): string {
  folder ??= join(dirname(createRequire(import.meta.url).resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');
  return folder;
}

function grammarPath(language: LanguageId): string {
  return join(grammarFolder(), `tree-sitter-${LANGUAGE_RULES[language].grammar}.wasm`);
}

async function loadParser(language: LanguageId): Promise<Parser | undefined> {
  runtime ??= import('web-tree-sitter').then(async (treeSitter) => {
    await treeSitter.Parser.init();
    return treeSitter;
  });
  const { Language, Parser } = await runtime;
  try {
    const grammar = await Language.load(grammarPath(language));
    const parser = new Parser();
    parser.setLanguage(grammar);
    present.set(language, true);
    return parser;
  } catch {
    // A grammar that fails to load leaves that language to line-based folding.
    present.set(language, false);
    return undefined;
  }
}

/**
 * The parser for `language`, loaded on first use and shared for the rest of the process
 * (wasm grammars are slow to instantiate and never change). Undefined when the grammar cannot load.
 * The tree-sitter runtime itself starts with the first grammar a compaction needs.
 */
export function parserFor(language: LanguageId): Promise<Parser | undefined> {
  let parser = parsers.get(language);
  if (!parser) {
    parser = loadParser(language);
    parsers.set(language, parser);
  }
  return parser;
}

/**
 * Whether `language` would be parsed with a grammar, answered without loading one: once a load
 * was tried, its outcome; before, whether the grammar's file is there.
 */
export function grammarMayLoad(language: LanguageId): boolean {
  let known = present.get(language);
  if (known === undefined) {
    known = existsSync(grammarPath(language));
    present.set(language, known);
  }
  return known;
}

/** Languages whose grammar this process has loaded or started to load, in that order. */
export function loadedGrammars(): LanguageId[] {
  return [...parsers.keys()];
}
