import type { LanguageId } from './language-id.js';

/** What the folder needs to know about one grammar's node types. */
export interface LanguageRules {
  /** Wasm file name in `@vscode/tree-sitter-wasm/wasm/` (without `tree-sitter-` and `.wasm`). */
  readonly grammar: string;
  /** Functions and methods: the signature stays, the body folds. */
  readonly definitions: ReadonlySet<string>;
  /** Classes, modules, impls, namespaces: the header stays and their members are folded one by one. */
  readonly containers: ReadonlySet<string>;
  /** Type-shaped declarations (structs, enums, interfaces) kept whole when short. */
  readonly keepWhole: ReadonlySet<string>;
  readonly imports: ReadonlySet<string>;
  readonly comments: ReadonlySet<string>;
  /** Python-style docstrings: a string statement opening a module, class or function. */
  readonly docstrings: boolean;
}

const set = (...types: string[]): ReadonlySet<string> => new Set(types);

const TYPESCRIPT_FAMILY: Omit<LanguageRules, 'grammar'> = {
  definitions: set('function_declaration', 'generator_function_declaration', 'method_definition', 'function_expression', 'arrow_function', 'function'),
  containers: set('class_declaration', 'abstract_class_declaration', 'class', 'internal_module', 'module'),
  keepWhole: set('interface_declaration', 'type_alias_declaration', 'enum_declaration'),
  imports: set('import_statement'),
  comments: set('comment'),
  docstrings: false,
};

export const LANGUAGE_RULES: Readonly<Record<LanguageId, LanguageRules>> = {
  python: {
    grammar: 'python',
    definitions: set('function_definition'),
    containers: set('class_definition'),
    keepWhole: set(),
    imports: set('import_statement', 'import_from_statement', 'future_import_statement'),
    comments: set('comment'),
    docstrings: true,
  },
  typescript: { grammar: 'typescript', ...TYPESCRIPT_FAMILY },
  tsx: { grammar: 'tsx', ...TYPESCRIPT_FAMILY },
  javascript: { grammar: 'javascript', ...TYPESCRIPT_FAMILY },
  go: {
    grammar: 'go',
    definitions: set('function_declaration', 'method_declaration', 'func_literal'),
    containers: set(),
    keepWhole: set('type_declaration'),
    imports: set('import_declaration', 'package_clause'),
    comments: set('comment'),
    docstrings: false,
  },
  rust: {
    grammar: 'rust',
    definitions: set('function_item', 'closure_expression'),
    containers: set('impl_item', 'trait_item', 'mod_item'),
    keepWhole: set('struct_item', 'enum_item', 'union_item', 'type_item'),
    imports: set('use_declaration', 'extern_crate_declaration'),
    comments: set('line_comment', 'block_comment'),
    docstrings: false,
  },
  java: {
    grammar: 'java',
    definitions: set('method_declaration', 'constructor_declaration', 'compact_constructor_declaration'),
    containers: set('class_declaration', 'interface_declaration', 'enum_declaration', 'record_declaration', 'annotation_type_declaration'),
    keepWhole: set(),
    imports: set('import_declaration', 'package_declaration'),
    comments: set('line_comment', 'block_comment'),
    docstrings: false,
  },
  cpp: {
    grammar: 'cpp',
    definitions: set('function_definition', 'lambda_expression'),
    containers: set('class_specifier', 'struct_specifier', 'namespace_definition', 'linkage_specification'),
    keepWhole: set('enum_specifier', 'union_specifier'),
    imports: set('preproc_include', 'using_declaration'),
    comments: set('comment'),
    docstrings: false,
  },
  bash: {
    grammar: 'bash',
    definitions: set('function_definition'),
    containers: set(),
    keepWhole: set(),
    imports: set(),
    comments: set('comment'),
    docstrings: false,
  },
  ruby: {
    grammar: 'ruby',
    definitions: set('method', 'singleton_method'),
    containers: set('class', 'module', 'singleton_class'),
    keepWhole: set(),
    imports: set(),
    comments: set('comment'),
    docstrings: false,
  },
  php: {
    grammar: 'php',
    definitions: set('function_definition', 'method_declaration'),
    containers: set('class_declaration', 'interface_declaration', 'trait_declaration', 'namespace_definition'),
    keepWhole: set('enum_declaration'),
    imports: set('namespace_use_declaration'),
    comments: set('comment'),
    docstrings: false,
  },
  'c-sharp': {
    grammar: 'c-sharp',
    definitions: set('method_declaration', 'constructor_declaration', 'local_function_statement'),
    containers: set('class_declaration', 'interface_declaration', 'struct_declaration', 'namespace_declaration', 'record_declaration'),
    keepWhole: set('enum_declaration'),
    imports: set('using_directive'),
    comments: set('comment'),
    docstrings: false,
  },
};
