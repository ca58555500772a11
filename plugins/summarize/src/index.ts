import { createSummarizeProvider } from './summarize-provider.js';

export { RESUME_FOLD_REASON, SUMMARIZE_PROVIDER_NAME, createSummarizeProvider } from './summarize-provider.js';
export type { ResolvedSummarizeOptions, SummarizeOptions } from './summarize-options.js';
export { DEFAULT_FILE_MAX_TOKENS, DEFAULT_RESUME_MAX_TOKENS, resolveSummarizeOptions } from './summarize-options.js';
export type { ParsedResume } from './parse-resume.js';
export { RESUME_SECTIONS, parseResume } from './parse-resume.js';
export type { ContextFile, ContextFilesRead } from './read-context-files.js';
export { readContextFiles } from './read-context-files.js';

/** The summarize provider with default options (RESUME up to 1500 tokens, files capped at 2000). */
const summarize = createSummarizeProvider();
export default summarize;
