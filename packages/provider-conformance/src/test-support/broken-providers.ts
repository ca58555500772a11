import {
  buildCompactionResult,
  saveRemovedContent,
  sha256Hex,
  type CompactionResult,
  type ContextProviderV1,
  type Message,
  type MessagePart,
} from '@ollm/core';
import { createIdentityProvider } from '../identity-provider.js';

/**
 * A provider whose output is `change(input)` with an otherwise correct result (digest, stats,
 * limitations), so each broken provider breaks exactly one thing.
 */
function createChangingProvider(name: string, change: (messages: readonly Message[]) => readonly Message[]): ContextProviderV1 {
  return {
    specificationVersion: 'v1',
    name,
    description: `broken on purpose: ${name}`,
    shouldCompress: () => true,
    async compress(messages, config, context) {
      const output = change(messages);
      return buildCompactionResult({
        input: messages,
        output,
        tokens: context.tokens,
        startedAt: performance.now(),
        limitations: ['test provider'],
      });
    },
  };
}

/** Like identity, with the result passed through `change` (for broken result fields). */
function createResultChangingProvider(
  name: string,
  change: (result: CompactionResult, messages: readonly Message[], logdir?: string) => unknown,
): ContextProviderV1 {
  const identity = createIdentityProvider();
  return {
    ...identity,
    name,
    async compress(messages, config, context) {
      const result = await identity.compress(messages, config, context);
      return change({ ...result, limitations: ['test provider'] }, messages, config.logdir) as CompactionResult;
    },
  };
}

function replaceText(message: Message, text: string): Message {
  return { ...message, parts: message.parts.map((part): MessagePart => (part.type === 'text' ? { ...part, text } : part)) };
}

export const dropsToolResults = createChangingProvider('drops-tool-results', (messages) => messages.filter((message) => message.role !== 'tool'));

export const dropsToolCallKeepsResult = createChangingProvider('drops-tool-call', (messages) => {
  const target = messages.find((message) => message.parts.some((part) => part.type === 'tool-call'));
  return messages.map((message) => (message === target ? { ...message, parts: message.parts.filter((part) => part.type !== 'tool-call') } : message));
});

export const reordersMessages = createChangingProvider('reorders-messages', (messages) => {
  const output = [...messages];
  [output[1], output[2]] = [output[2]!, output[1]!];
  return output;
});

export const editsUserMessage = createChangingProvider('edits-user-message', (messages) =>
  messages.map((message) => (message.role === 'user' && message === messages.find((item) => item.role === 'user') ? replaceText(message, 'Fix it.') : message)),
);

export const growsOutput = createChangingProvider('grows-output', (messages) =>
  messages.map((message, index) =>
    index === messages.length - 1 ? { ...message, parts: [...message.parts, { type: 'text', text: 'padding '.repeat(200) }] } : message,
  ),
);

export const mutatesInput = createChangingProvider('mutates-input', (messages) => {
  const target = messages.find((message) => message.role === 'assistant' && !message.pinned && message.parts.every((part) => part.type === 'text'));
  // Deliberately writes through the readonly type, as a careless provider would.
  if (target) (target as { parts: readonly MessagePart[] }).parts = [{ type: 'text', text: 'shortened' }];
  return messages;
});

export const wrongSourceDigest = createResultChangingProvider('wrong-source-digest', (result) => ({ ...result, sourceDigest: sha256Hex('not the input') }));

export const mismatchedRemovedFile = createResultChangingProvider('mismatched-removed-file', (result, messages, logdir) => {
  const saved = saveRemovedContent(logdir!, 'the content actually saved');
  return {
    ...result,
    removed: [{ messageId: messages[0]!.id, kind: 'tool-result', sha256: sha256Hex('different content'), originalTokens: 5, path: saved.path }],
  };
});

export const removedFileOutsideLogdir = createResultChangingProvider('removed-file-outside-logdir', (result, messages) => {
  const path = new URL(import.meta.url).pathname;
  return { ...result, removed: [{ messageId: messages[0]!.id, kind: 'message', sha256: 'a'.repeat(64), originalTokens: 1, path }] };
});

export const removedFromUnknownMessage = createResultChangingProvider('removed-from-unknown-message', (result) => ({
  ...result,
  removed: [{ messageId: 'no-such-message', kind: 'message', sha256: sha256Hex('x'), originalTokens: 1 }],
}));

/** Folds a message away and declares it folded: allowed for a user message, never for a system one. */
function createFoldingProvider(role: 'user' | 'system'): ContextProviderV1 {
  const identity = createIdentityProvider();
  return {
    ...identity,
    name: `folds-${role}`,
    async compress(messages, config, context) {
      const target = messages.find((message) => message.role === role && !message.pinned);
      const output = messages.filter((message) => message !== target);
      return {
        ...buildCompactionResult({ input: messages, output, tokens: context.tokens, startedAt: performance.now(), limitations: ['folded one message'] }),
        folded: target ? [{ messageId: target.id, reason: 'quoted in the checkpoint' }] : [],
      };
    },
  };
}

export const foldsUserMessage = createFoldingProvider('user');

/** Drops the messages with these ids (their tool pairs together, so only the shape can break). */
export function dropsMessages(ids: readonly string[]): ContextProviderV1 {
  const identity = createIdentityProvider();
  return {
    ...identity,
    name: 'drops-messages',
    async compress(messages, _config, context) {
      const output = messages.filter((message) => !ids.includes(message.id));
      return buildCompactionResult({ input: messages, output, tokens: context.tokens, startedAt: performance.now(), limitations: ['dropped messages'] });
    },
  };
}
export const foldsSystemMessage = createFoldingProvider('system');

export const throwsInCompress = createResultChangingProvider('throws', () => {
  throw new Error('boom');
});

export const resolvesToNull = createResultChangingProvider('resolves-to-null', () => null);

export const wrongStats = createResultChangingProvider('wrong-stats', (result) => ({
  ...result,
  stats: { ...result.stats, tokensAfter: result.stats.tokensAfter + 1 },
}));

export const coveredThroughPastEnd = createResultChangingProvider('covered-through-past-end', (result, messages) => ({
  ...result,
  coveredThrough: messages.length,
}));

export const silentWhenOverLimit = createResultChangingProvider('silent-over-limit', (result) => ({ ...result, limitations: [] }));

/** Correct on its first run, wrong on every later one: only the stability check can see it. */
export function createUnstableSourceDigestProvider(): ContextProviderV1 {
  let runs = 0;
  return createResultChangingProvider('unstable-source-digest', (result) => {
    runs += 1;
    return runs === 1 ? result : { ...result, sourceDigest: sha256Hex(`run ${runs}`) };
  });
}

export const throwingShouldCompress: ContextProviderV1 = {
  ...createIdentityProvider(),
  name: 'throwing-should-compress',
  shouldCompress: () => {
    throw new Error('cannot decide');
  },
};
