import {
  type CompactionWarning,
  type ContextProviderV2,
  type FoldedMessage,
  isCheckpointMessage,
  type Message,
  type RemovedContent,
  renderMessage,
  saveRemovedContent,
  sha256Hex,
  toolTurnGroups,
} from '@ollm/core';

/** Why the window guard folded user messages (CompactionResult `folded`, `user-messages-folded`). */
export const WINDOW_GUARD_FOLD_REASON =
  'user messages alone outgrew the window; the oldest are quoted in the system message (full text in the session history)';

/** What the runtime tells the guard about the conversation. */
export interface WindowGuardOptions {
  /**
   * Ids of user messages still waiting for their reply (the runtime tracks them as messages are
   * added): never folded. Without it, the user messages after the last assistant message count
   * as waiting, and all of them do when no assistant message is left.
   */
  readonly pendingMessageIds?: ReadonlySet<string>;
}

/**
 * The runtime's last resort when the other stages could not get under the window, in three
 * phases, each only while still over `config.limit`: (1) drop the oldest assistant turns (a turn
 * = an assistant message and the tool results answering it); (2) fold the oldest user messages,
 * declared in `folded` (the runtime keeps each as a quote): never one still waiting for its reply,
 * never the latest, never a pinned or system message; (3) drop checkpoints, oldest first — only
 * the provider that made a checkpoint ages it, so they go last, when nothing else is left. A turn
 * whose tool call still waits for its result is never dropped. The full record stays in the
 * session history and everything dropped is saved under logdir.
 */
export function createWindowGuardProvider(options: WindowGuardOptions = {}): ContextProviderV2 {
  return {
    specificationVersion: 'v2',
    name: 'window-guard',
    description: 'Drops the oldest assistant/tool turns so the context fits the window (last resort)',
    usesModel: false,
    async compress({ messages, limit: target, settings, tokens }) {
      const limit = target ?? Number.POSITIVE_INFINITY;
      let total = tokens.countMessages(messages);
      const dropped = new Set<number>();
      const removed: RemovedContent[] = [];
      const save = (messageId: string, kind: string, content: string, tokens: number): void => {
        const saved = settings.logdir ? saveRemovedContent(settings.logdir, content) : { sha256: sha256Hex(content), path: undefined };
        removed.push({ messageId, kind, sha256: saved.sha256, originalTokens: tokens, ...(saved.path ? { path: saved.path } : {}) });
      };
      const dropGroups = (groups: readonly number[][], kind: string): number => {
        let count = 0;
        for (const group of groups) {
          if (total <= limit) break;
          const groupMessages = group.map((index) => messages[index]!);
          const groupTokens = tokens.countMessages(groupMessages);
          save(groupMessages[0]!.id, kind, groupMessages.map(renderMessage).join('\n\n'), groupTokens);
          for (const index of group) dropped.add(index);
          total -= groupTokens;
          count += 1;
        }
        return count;
      };
      const { turns, checkpoints } = droppableGroups(messages);
      const droppedTurns = dropGroups(turns, 'turn');
      const folded: FoldedMessage[] = [];
      const waiting = options.pendingMessageIds ?? waitingMessages(messages);
      const latestUser = messages.findLastIndex((message) => message.role === 'user');
      for (const [index, message] of messages.entries()) {
        if (total <= limit) break;
        if (
          message.role !== 'user' ||
          message.pinned ||
          index === latestUser ||
          waiting.has(message.id) ||
          message.parts.some((part) => part.type === 'tool-result')
        )
          continue;
        const messageTokens = tokens.countMessage(message);
        save(message.id, 'user-message', JSON.stringify(message), messageTokens);
        folded.push({ messageId: message.id, reason: WINDOW_GUARD_FOLD_REASON });
        dropped.add(index);
        total -= messageTokens;
      }
      const droppedCheckpoints = dropGroups(checkpoints, 'checkpoint');
      const output = messages.filter((_, index) => !dropped.has(index));
      const limitations = droppedTurns > 0 ? [`dropped ${droppedTurns} oldest assistant turn(s) to fit the window`] : [];
      if (folded.length > 0) limitations.push(`folded ${folded.length} oldest user message(s): user messages alone outgrew the window`);
      if (droppedCheckpoints > 0) limitations.push(`dropped ${droppedCheckpoints} checkpoint(s): nothing else was left to drop`);
      if (total > limit) limitations.push(`still ${total} tokens over a limit of ${limit}: what is left is system, pinned and the messages not answered yet`);
      // The host adds the digest, the stats and the timing.
      return { messages: output, removed, folded, warnings: limitations.map((message): CompactionWarning => ({ type: 'note', message })) };
    },
  };
}

/** User messages after the last assistant message (all of them when there is none): still waiting for a reply. */
function waitingMessages(messages: readonly Message[]): ReadonlySet<string> {
  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
  return new Set(messages.filter((message, index) => index > lastAssistant && message.role === 'user').map((message) => message.id));
}

/**
 * Oldest first: each tool turn (an assistant message with the tool messages answering its calls,
 * joined by core's `toolTurnGroups`) that holds an assistant message and no system, user or
 * pinned member; the ones holding a checkpoint apart, to be dropped last. A turn is dropped whole
 * so pairing holds, and a turn whose calls are still waiting for their results is not dropped.
 */
function droppableGroups(messages: readonly Message[]): { turns: number[][]; checkpoints: number[][] } {
  const answered = new Set<string>();
  for (const message of messages) for (const part of message.parts) if (part.type === 'tool-result') answered.add(part.callId);
  const seen = new Set<number[]>();
  const turns: number[][] = [];
  const checkpoints: number[][] = [];
  for (const group of toolTurnGroups(messages)) {
    if (seen.has(group)) continue;
    seen.add(group);
    const members = group.map((index) => messages[index]!);
    const protectedMember = members.some((message) => message.pinned || message.role === 'system' || message.role === 'user');
    const waiting = members.some((message) => message.parts.some((part) => part.type === 'tool-call' && !answered.has(part.callId)));
    if (protectedMember || waiting || !members.some((message) => message.role === 'assistant')) continue;
    (members.some(isCheckpointMessage) ? checkpoints : turns).push(group);
  }
  const byPosition = (a: number[], b: number[]) => a[0]! - b[0]!;
  return { turns: turns.sort(byPosition), checkpoints: checkpoints.sort(byPosition) };
}
