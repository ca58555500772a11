import { type ContextProviderV2, outputFromResult, v1Arguments } from '@ollm/core';
import { resolveCodeAwareOptions, type CodeAwareProviderOptions } from './code-aware-options.js';
import { CodeAwareCompaction } from './compaction/code-aware-compaction.js';
import { collectCodeViews } from './compaction/find-code-views.js';
import { sharedCodeAwareCache, uncachedCodeAware } from './cache/code-aware-cache.js';
import { planFoldSteps } from './compaction/plan-fold-steps.js';

export const CODE_AWARE_PROVIDER_NAME = 'code-aware';

/**
 * Creates the code-aware provider: it folds code the conversation has moved past, oldest first,
 * until the context is under `config.limit` (everything eligible when no limit is given).
 * See `planFoldSteps` for the order.
 */
export function createCodeAwareProvider(options: CodeAwareProviderOptions = {}): ContextProviderV2 {
  resolveCodeAwareOptions(options); // bad options fail when the provider is made, not mid-compaction
  const cache = options.cache === false ? uncachedCodeAware() : (options.cache ?? sharedCodeAwareCache);
  return {
    specificationVersion: 'v2',
    usesModel: false,
    name: CODE_AWARE_PROVIDER_NAME,
    description:
      'Folds code with tree-sitter: repeated file reads to references; old file views, heredoc scripts and code blocks to signatures, imports and the lines the conversation edited or cited',
    async compress(call) {
      const { messages } = call;
      const { config, context } = v1Arguments(call);
      const startedAt = performance.now();
      const { recentMessages, minimumSavingTokens } = resolveCodeAwareOptions(options, config.extraConfig);
      const found = collectCodeViews(messages, cache);
      const compaction = new CodeAwareCompaction(messages, found, config, context, minimumSavingTokens, cache);
      for (const step of planFoldSteps(found.views, messages.length, recentMessages)) {
        if (compaction.underLimit()) break;
        await compaction.apply(step);
      }
      return outputFromResult(compaction.result(startedAt));
    },
  };
}
