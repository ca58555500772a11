import { type ContextProviderV2, outputFromResult, v1Arguments } from '@ollm/core';
import { resolveCodeAwareOptions, type CodeAwareProviderOptions } from './code-aware-options.js';
import { CodeAwareCompaction } from './compaction/code-aware-compaction.js';
import { findCodeViews } from './compaction/find-code-views.js';
import { planFoldSteps } from './compaction/plan-fold-steps.js';

export const CODE_AWARE_PROVIDER_NAME = 'code-aware';

/**
 * Creates the code-aware provider: it folds code the conversation has moved past, oldest first,
 * until the context is under `config.limit` (everything eligible when no limit is given).
 * See `planFoldSteps` for the order.
 */
export function createCodeAwareProvider(options: CodeAwareProviderOptions = {}): ContextProviderV2 {
  resolveCodeAwareOptions(options); // bad options fail when the provider is made, not mid-compaction
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
      const views = findCodeViews(messages);
      const compaction = new CodeAwareCompaction(messages, views, config, context, minimumSavingTokens);
      for (const step of planFoldSteps(views, messages.length, recentMessages)) {
        if (compaction.underLimit()) break;
        await compaction.apply(step);
      }
      return outputFromResult(compaction.result(startedAt));
    },
  };
}
