import { buildCompactionResult, saveRemovedContent, sha256Hex, type ContextProviderV1, type Message, type RemovedContent } from '@ollm/core';

/**
 * A small correct provider that really removes content: tool outputs over `maxToolResultTokens`
 * go to `logdir` and leave a placeholder naming the file. Shows the checks accept legitimate
 * compression, removed-file records included.
 */
export function createPlaceholderProvider(): ContextProviderV1 {
  return {
    specificationVersion: 'v1',
    name: 'placeholder',
    description: 'Moves large tool outputs to logdir (test support)',
    shouldCompress: (messages, config, context) => config.limit !== undefined && context.tokens.countMessages(messages) > config.limit,
    async compress(messages, config, context) {
      const startedAt = performance.now();
      const removed: RemovedContent[] = [];
      const output = messages.map((message): Message => {
        if (message.pinned || message.role !== 'tool') return message;
        let changed = false;
        const parts = message.parts.map((part) => {
          if (part.type !== 'tool-result' || context.tokens.countText(part.output) <= config.maxToolResultTokens / 4) return part;
          const originalTokens = context.tokens.countText(part.output);
          const saved = config.logdir ? saveRemovedContent(config.logdir, part.output) : undefined;
          const placeholder = `[output removed: ${originalTokens} tokens${saved ? `, saved to ${saved.path}` : ''}]`;
          if (context.tokens.countText(placeholder) >= originalTokens) return part;
          changed = true;
          removed.push({ messageId: message.id, kind: 'tool-result', sha256: sha256Hex(part.output), originalTokens, ...(saved ? { path: saved.path } : {}) });
          return { ...part, output: placeholder };
        });
        return changed ? { ...message, parts } : message;
      });
      const tokensAfter = context.tokens.countMessages(output);
      const overLimit = config.limit !== undefined && tokensAfter > config.limit;
      return buildCompactionResult({
        input: messages,
        output,
        tokens: context.tokens,
        startedAt,
        removed,
        limitations: overLimit ? [`${tokensAfter} tokens remain over the limit ${config.limit}`] : [],
      });
    },
  };
}
