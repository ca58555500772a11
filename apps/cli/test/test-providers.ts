import {
  buildCompactionResult,
  ModelUnavailableError,
  saveRemovedContent,
  withParts,
  type ContextProviderV1,
  type Message,
  type RemovedContent,
} from '@ollm/core';
import { ProviderRegistry } from '@ollm/runtime';

/** Returns the conversation unchanged. */
export const identityProvider: ContextProviderV1 = {
  specificationVersion: 'v1',
  name: 'identity',
  description: 'Keeps every message (tests)',
  shouldCompress: () => false,
  async compress(messages, _config, context) {
    return buildCompactionResult({ input: messages, output: messages, tokens: context.tokens, startedAt: performance.now() });
  },
};

/** Replaces every tool result with a placeholder naming the file its output was saved to. */
export const placeholderProvider: ContextProviderV1 = {
  specificationVersion: 'v1',
  name: 'placeholder',
  description: 'Saves each tool result under logdir and leaves a placeholder (tests)',
  shouldCompress: () => true,
  async compress(messages, config, context) {
    const startedAt = performance.now();
    const removed: RemovedContent[] = [];
    const output = messages.map((message): Message => {
      if (!message.parts.some((part) => part.type === 'tool-result' && part.output.length > 200)) return message;
      return withParts(
        message,
        message.parts.map((part) => {
          if (part.type !== 'tool-result' || part.output.length <= 200) return part;
          const saved = saveRemovedContent(config.logdir!, part.output);
          removed.push({
            messageId: message.id,
            kind: 'tool-result',
            sha256: saved.sha256,
            originalTokens: context.tokens.countText(part.output),
            path: saved.path,
          });
          return { ...part, output: `[output saved to ${saved.path}]` };
        }),
      );
    });
    return buildCompactionResult({ input: messages, output, tokens: context.tokens, startedAt, removed });
  },
};

/** Edits the first user message, which the integrity validator must reject. */
export const ruleBreakingProvider: ContextProviderV1 = {
  specificationVersion: 'v1',
  name: 'rule-breaker',
  description: 'Rewrites a user message (tests)',
  shouldCompress: () => true,
  async compress(messages, _config, context) {
    const output = messages.map((message, index) =>
      message.role === 'user' && messages.findIndex((candidate) => candidate.role === 'user') === index
        ? withParts(message, [{ type: 'text', text: 'rewritten' }])
        : message,
    );
    return buildCompactionResult({ input: messages, output, tokens: context.tokens, startedAt: performance.now() });
  },
};

/** A model-based provider whose model server is down. */
export const offlineProvider: ContextProviderV1 = {
  specificationVersion: 'v1',
  name: 'offline',
  description: 'Needs a model that is not running (tests)',
  shouldCompress: () => true,
  async compress() {
    throw new ModelUnavailableError({ provider: 'ollama', baseURL: 'http://127.0.0.1:11434', hint: 'start it with `ollama serve`' });
  },
};

export function testRegistry(): ProviderRegistry {
  const registry = new ProviderRegistry();
  for (const provider of [identityProvider, placeholderProvider, ruleBreakingProvider, offlineProvider]) registry.register(provider, '(test)');
  return registry;
}
