import { createFoldProvider } from './fold-provider.js';

export { createFoldProvider, FOLD_PROVIDER_NAME } from './fold-provider.js';
export type { FoldOptions, ResolvedFoldOptions } from './fold-options.js';
export { DEFAULT_FOLD_OPTIONS, resolveFoldOptions } from './fold-options.js';
export { extractIdentifiers, type IdentifierKind } from './identifiers/extract-identifiers.js';

/** The fold provider with default options. */
const fold = createFoldProvider();
export default fold;
