import {
  buildCompactionResult,
  type ContextProvider,
  type FoldedMessage,
  type Message,
  type RemovedContent,
  renderMessage,
  saveRemovedContent,
  sha256Hex,
  toolTurnGroups,
} from '@ollm/core';

/** Why the window guard folded user messages (CompactionResult `folded`, `user-messages-folded`). */
export const WINDOW_GUARD_FOLD_REASON = 'user messages alone outgrew the window; the oldest were folded (saved under logdir, kept in the session history)';

/**
 * The runtime's last resort when the other stages could not get under the window: drops the oldest
 * assistant turns (a turn = an assistant message and the tool results answering it) until under
 * `config.limit`. If user messages alone are still over it (no model to fold them into a
 * checkpoint), the oldest user messages are folded too, declared in `folded`: never one the
 * model has not answered yet (every user message after the last assistant message, so always the
 * latest), never a pinned or system message. The runtime keeps each folded message as a quote. The full record stays in the session history and
 * everything dropped is saved under logdir.
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
        removed.push({
          messageId: groupMessages[0]!.id,
          kind: 'turn',
          sha256: saved.sha256,
          originalTokens: tokens,
          ...(saved.path ? { path: saved.path } : {}),
        });
        for (const index of group) dropped.add(index);
        total -= tokens;
      }
      const turns = removed.length;
      const folded: FoldedMessage[] = [];
      const lastAnswered = answeredBefore(messages);
      for (const [index, message] of messages.entries()) {
        if (total <= limit || index >= lastAnswered) break;
        if (message.role !== 'user' || message.pinned || message.parts.some((part) => part.type === 'tool-result')) continue;
        const tokens = context.tokens.countMessage(message);
        const content = JSON.stringify(message);
        const saved = config.logdir ? saveRemovedContent(config.logdir, content) : { sha256: sha256Hex(content), path: undefined };
        removed.push({
          messageId: message.id,
          kind: 'user-message',
          sha256: saved.sha256,
          originalTokens: tokens,
          ...(saved.path ? { path: saved.path } : {}),
        });
        folded.push({ messageId: message.id, reason: WINDOW_GUARD_FOLD_REASON });
        dropped.add(index);
        total -= tokens;
      }
      const output = messages.filter((_, index) => !dropped.has(index));
      const limitations = turns > 0 ? [`dropped ${turns} oldest assistant turn(s) to fit the window`] : [];
      if (folded.length > 0) limitations.push(`folded ${folded.length} oldest user message(s): user messages alone outgrew the window`);
      if (total > limit) limitations.push(`still ${total} tokens over a limit of ${limit}: what is left is system, pinned and the messages not answered yet`);
      return buildCompactionResult({ input: messages, output, tokens: context.tokens, startedAt, removed, limitations, folded });
    },
  };
}

/**
 * User messages before this index have had their reply: it is the last assistant message's
 * position, and never past the latest user message, which is never folded. With no assistant
 * message left (earlier rounds dropped them all), only the latest user message counts as waiting.
 */
function answeredBefore(messages: readonly Message[]): number {
  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
  const latestUser = messages.findLastIndex((message) => message.role === 'user');
  if (latestUser === -1) return messages.length;
  return lastAssistant === -1 ? latestUser : Math.min(lastAssistant, latestUser);
}

/**
 * Oldest first: each tool turn (an assistant message with the tool messages answering its calls,
 * joined by core's `toolTurnGroups`) that holds an assistant message and no system, user or
 * pinned member — those are never dropped, and a turn is dropped whole so pairing holds. A turn
 * whose calls are still waiting for their results is not dropped either.
 */
function droppableGroups(messages: readonly Message[]): number[][] {
  const answered = new Set<string>();
  for (const message of messages) for (const part of message.parts) if (part.type === 'tool-result') answered.add(part.callId);
  const seen = new Set<number[]>();
  const groups: number[][] = [];
  for (const group of toolTurnGroups(messages)) {
    if (seen.has(group)) continue;
    seen.add(group);
    const members = group.map((index) => messages[index]!);
    const protectedMember = members.some((message) => message.pinned || message.role === 'system' || message.role === 'user');
    // A call still waiting for its result is the turn in progress: its result will need it.
    const waiting = members.some((message) => message.parts.some((part) => part.type === 'tool-call' && !answered.has(part.callId)));
    if (!protectedMember && !waiting && members.some((message) => message.role === 'assistant')) groups.push(group);
  }
  return groups.sort((a, b) => a[0]! - b[0]!);
}
