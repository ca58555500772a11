import type { Message } from '../messages/message.js';
import { renderMessage } from '../messages/message-helpers.js';
import { buildCompactionResult } from '../host/build-compaction-result.js';
import { saveRemovedContent } from '../recovery/recovery-store.js';
import { sha256Hex } from '../digest/source-digest.js';
import type { RemovedContent } from '../spec/compaction-result.js';
import type { ContextProvider } from '../spec/context-provider.js';

/**
 * The runtime's last resort when the other stages could not get under the window: drops the oldest
 * assistant turns (a turn = an assistant message and the tool results answering it) until under
 * `config.limit`. System, user and pinned messages are never dropped; the full record stays in
 * the session history and each dropped turn is saved under logdir.
 */
export function createWindowGuardProvider(): ContextProvider {
  return {
    specificationVersion: 'v1',
    name: 'window-guard',
    description: 'Drops the oldest assistant/tool turns so the context fits the window (last resort)',
    shouldCompress: (messages, config, context) => config.limit !== undefined && context.tokens.countMessages(messages) > config.limit,
    async compress(messages, config, context) {
      const startedAt = performance.now();
      const limit = config.limit ?? Number.POSITIVE_INFINITY;
      let total = context.tokens.countMessages(messages);
      const dropped = new Set<number>();
      const removed: RemovedContent[] = [];
      for (const group of droppableGroups(messages)) {
        if (total <= limit) break;
        const groupMessages = group.map((index) => messages[index]!);
        const content = groupMessages.map(renderMessage).join('\n\n');
        const tokens = context.tokens.countMessages(groupMessages);
        const saved = config.logdir ? saveRemovedContent(config.logdir, content) : { sha256: sha256Hex(content), path: undefined };
        removed.push({ messageId: groupMessages[0]!.id, kind: 'turn', sha256: saved.sha256, originalTokens: tokens, ...(saved.path ? { path: saved.path } : {}) });
        for (const index of group) dropped.add(index);
        total -= tokens;
      }
      const output = messages.filter((_, index) => !dropped.has(index));
      const limitations = dropped.size > 0 ? [`dropped ${removed.length} oldest assistant turn(s) to fit the window`] : [];
      if (total > limit) limitations.push(`still ${total} tokens over a limit of ${limit}: what is left is system, user and pinned messages`);
      return buildCompactionResult({ input: messages, output, tokens: context.tokens, startedAt, removed, limitations });
    },
  };
}

/** Oldest first: each assistant message (not pinned) with the tool messages that answer its calls. */
function droppableGroups(messages: readonly Message[]): number[][] {
  const groups: number[][] = [];
  const groupOfCall = new Map<string, number[]>();
  messages.forEach((message, index) => {
    if (message.role === 'assistant' && !message.pinned) {
      const group = [index];
      groups.push(group);
      for (const part of message.parts) if (part.type === 'tool-call') groupOfCall.set(part.callId, group);
    } else if (message.role === 'tool') {
      const callIds = message.parts.flatMap((part) => (part.type === 'tool-result' ? [part.callId] : []));
      const owner = callIds.map((callId) => groupOfCall.get(callId)).find((group) => group !== undefined);
      if (owner && !message.pinned) owner.push(index);
      else if (owner) owner.length = 0; // a pinned result keeps its call
    }
  });
  return groups.filter((group) => group.length > 0);
}
