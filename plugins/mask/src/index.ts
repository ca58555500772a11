import { createMaskProvider } from './mask-provider.js';

export { createMaskProvider, MASK_PROVIDER_NAME } from './mask-provider.js';
export type { MaskMode, MaskOptions, ResolvedMaskOptions } from './mask-options.js';
export { DEFAULT_KEEP_LAST, DEFAULT_MINIMUM_TOKENS_SAVED, resolveMaskOptions } from './mask-options.js';
export { PLACEHOLDER_PREFIX, buildPlaceholder, isPlaceholder } from './build-placeholder.js';
export { countLines, describeOutput } from './describe-output.js';
export { describeCall } from './describe-call.js';

/** The mask provider with default options (keepLast 10, mode by limit). */
const mask = createMaskProvider();
export default mask;
