import { createCodeAwareProvider } from './code-aware-provider.js';

export { CODE_AWARE_PROVIDER_NAME, createCodeAwareProvider } from './code-aware-provider.js';
export type { CodeAwareProviderOptions } from './code-aware-options.js';
export { DEFAULT_MINIMUM_SAVING_TOKENS, DEFAULT_RECENT_MESSAGES, resolveCodeAwareOptions } from './code-aware-options.js';
export type { CodeLine, CodeView } from './views/code-view.js';
export { findCodeViews } from './compaction/find-code-views.js';
export type { CodeAwareCacheLimits, CodeAwareCacheStats } from './cache/code-aware-cache.js';
export { CodeAwareCache, DEFAULT_CACHE_BYTES, DEFAULT_CACHE_ENTRIES, sharedCodeAwareCache } from './cache/code-aware-cache.js';
export type { LanguageId } from './grammar/language-id.js';
export { languageForFenceTag, languageForPath } from './grammar/language-id.js';

/** The code-aware provider with default options. */
const codeAwareProvider = createCodeAwareProvider();
export default codeAwareProvider;
