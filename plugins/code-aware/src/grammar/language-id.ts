/** Languages folded with a tree-sitter grammar from `@vscode/tree-sitter-wasm`. */
export type LanguageId = 'python' | 'typescript' | 'tsx' | 'javascript' | 'go' | 'rust' | 'java' | 'cpp' | 'bash' | 'ruby' | 'php' | 'c-sharp';

/**
 * C has no grammar in `@vscode/tree-sitter-wasm` 0.3.1; the C++ grammar parses C function
 * definitions, structs and includes well enough to fold them, so `.c`/`.h` map to `cpp`.
 */
const EXTENSION_LANGUAGES: Readonly<Record<string, LanguageId>> = {
  py: 'python',
  pyi: 'python',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  go: 'go',
  rs: 'rust',
  java: 'java',
  c: 'cpp',
  h: 'cpp',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  sh: 'bash',
  bash: 'bash',
  zsh: 'bash',
  rb: 'ruby',
  php: 'php',
  cs: 'c-sharp',
};

const FENCE_LANGUAGES: Readonly<Record<string, LanguageId>> = {
  python: 'python',
  python3: 'python',
  py: 'python',
  typescript: 'typescript',
  ts: 'typescript',
  tsx: 'tsx',
  javascript: 'javascript',
  js: 'javascript',
  jsx: 'javascript',
  node: 'javascript',
  go: 'go',
  golang: 'go',
  rust: 'rust',
  rs: 'rust',
  java: 'java',
  c: 'cpp',
  h: 'cpp',
  cpp: 'cpp',
  'c++': 'cpp',
  cxx: 'cpp',
  bash: 'bash',
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  ruby: 'ruby',
  rb: 'ruby',
  php: 'php',
  csharp: 'c-sharp',
  'c#': 'c-sharp',
  cs: 'c-sharp',
};

/** The language of a file path, from its extension; undefined when no grammar fits. */
export function languageForPath(path: string): LanguageId | undefined {
  const name = path.split('/').pop() ?? path;
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  return EXTENSION_LANGUAGES[name.slice(dot + 1).toLowerCase()];
}

/** The language named by a Markdown fence tag such as `python` or `ts {1,3}`. */
export function languageForFenceTag(tag: string): LanguageId | undefined {
  const word = tag.trim().split(/[\s{]/)[0]?.toLowerCase() ?? '';
  return FENCE_LANGUAGES[word] ?? languageForPath(`file.${word}`);
}

/** Source files of languages without a grammar here: folded line by line. */
const LINE_FOLDED_EXTENSIONS = new Set([
  'kt',
  'kts',
  'swift',
  'scala',
  'sc',
  'lua',
  'pl',
  'pm',
  'r',
  'hs',
  'ex',
  'exs',
  'erl',
  'clj',
  'dart',
  'm',
  'mm',
  'fs',
  'fsx',
  'ml',
  'vb',
  'groovy',
  'gradle',
  'zig',
  'nim',
  'jl',
  'cr',
  'v',
  'sql',
  'proto',
]);

/**
 * True when code at `path` (or of `language`) may fold to an outline: a language with a grammar,
 * or a source extension folded line by line. Prose and data (`.md`, `.rst`, `.txt`, `.json`,
 * `.yaml`) are left to other providers; their repeated reads still become references.
 */
export function isOutlineFoldable(language: LanguageId | undefined, path: string | undefined): boolean {
  if (language !== undefined) return true;
  const extension = path?.split('/').pop()?.split('.').slice(1).pop()?.toLowerCase();
  return extension !== undefined && LINE_FOLDED_EXTENSIONS.has(extension);
}
