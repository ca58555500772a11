import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Language, Parser } from 'web-tree-sitter';
import type { LanguageId } from './language-id.js';
import { LANGUAGE_RULES } from './language-rules.js';

let runtimeReady: Promise<void> | undefined;
const parsers = new Map<LanguageId, Promise<Parser | undefined>>();

function grammarFolder(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');
}

async function loadParser(language: LanguageId): Promise<Parser | undefined> {
  runtimeReady ??= Parser.init();
  await runtimeReady;
  try {
    const grammar = await Language.load(join(grammarFolder(), `tree-sitter-${LANGUAGE_RULES[language].grammar}.wasm`));
    const parser = new Parser();
    parser.setLanguage(grammar);
    return parser;
  } catch {
    // A grammar that fails to load leaves that language to line-based folding.
    return undefined;
  }
}

/**
 * The parser for `language`, loaded on first use and shared for the rest of the process
 * (wasm grammars are slow to instantiate and never change). Undefined when the grammar cannot load.
 */
export function parserFor(language: LanguageId): Promise<Parser | undefined> {
  let parser = parsers.get(language);
  if (!parser) {
    parser = loadParser(language);
    parsers.set(language, parser);
  }
  return parser;
}
