import {
  type CompactionWarning,
  type ContextProviderV2,
  createMessageId,
  findMessageShapeRegressions,
  type FoldedMessage,
  isCheckpointMessage,
  type Message,
  type MessageShapeRuleSet,
  type RemovedContent,
  renderMessage,
  saveRemovedContent,
  sha256Hex,
  toolTurnGroups,
  turnOf,
} from '@ollm/core';

/** Why the window guard folded user messages (CompactionResult `folded`, `user-messages-folded`). */
export const WINDOW_GUARD_FOLD_REASON =
  'user messages alone outgrew the window; the oldest are quoted in the system message (full text in the session history)';

/** How the one-line note the guard leaves in place of dropped turns begins. */
export const WINDOW_GUARD_NOTE_PREFIX = '[ollm window-guard]';

/** What the runtime tells the guard about the conversation. */
export interface WindowGuardOptions {
  /**
   * Ids of user messages still waiting for their reply (the runtime tracks them as messages are
   * added): never folded. Without it, the user messages after the last assistant message count
   * as waiting, and all of them do when no assistant message is left.
   */
  readonly pendingMessageIds?: ReadonlySet<string>;
  /**
   * The message shape the target accepts (core's `MESSAGE_SHAPE_RULE_SETS`). The guard keeps the
   * strict shape by construction; this only decides its very last resort, folding the first user
   * message (the task): with `strict` (default) only when a user turn then still comes first,
   * with `openai` whenever it is still over the limit.
   */
  readonly shape?: MessageShapeRuleSet;
}

/**
 * The runtime's last resort when the other stages could not get under the window, in phases,
 * each only while still over `config.limit`: (1) drop the oldest assistant turns (a turn = an
 * assistant message and the tool results answering it); (2) fold the oldest user messages,
 * declared in `folded` (the runtime keeps each as a quote): never the first (the task), never one
 * still waiting for its reply, never the latest, never a pinned or system message; (3) drop
 * checkpoints, oldest first — only the provider that made a checkpoint ages it, so they go last;
 * (4) fold the task, when nothing else is left and a user turn still comes first. A turn whose
 * tool call still waits for its result is never dropped. The full record stays in the session
 * history and everything dropped is saved under logdir.
 *
 * The output keeps the strict message shape of its input (core's `checkMessageShape`): where the
 * turns dropped were the only assistant content between two user messages — or after the last
 * one, once it is answered (the next message added is a user message) — a one-line assistant
 * note (`[ollm window-guard] 3 messages dropped to fit the window`, counted against the limit)
 * stands in their place, so user turns never touch; and the first message after the system
 * messages stays a user message.
 */
export function createWindowGuardProvider(options: WindowGuardOptions = {}): ContextProviderV2 {
  return {
    specificationVersion: 'v2',
    name: 'window-guard',
    description: 'Drops the oldest assistant/tool turns so the context fits the window (last resort)',
    usesModel: false,
    async compress({ messages, limit: target, settings, tokens }) {
      const limit = target ?? Number.POSITIVE_INFINITY;
      const waiting = options.pendingMessageIds ?? waitingMessages(messages);
      const layout = new GuardLayout(messages, waiting, (count) => tokens.countMessage(windowGuardNote(count)));
      let keptTokens = tokens.countMessages(messages);
      let total = keptTokens;
      const removed: RemovedContent[] = [];
      const save = (messageId: string, kind: string, content: string, tokens: number): void => {
        const saved = settings.logdir ? saveRemovedContent(settings.logdir, content) : { sha256: sha256Hex(content), path: undefined };
        removed.push({ messageId, kind, sha256: saved.sha256, originalTokens: tokens, ...(saved.path ? { path: saved.path } : {}) });
      };
      /** Takes `positions` out when that makes the context smaller (a note it needs included). */
      const take = (positions: readonly number[]): boolean => {
        const saved = tokens.countMessages(positions.map((index) => messages[index]!));
        layout.remove(positions);
        const next = keptTokens - saved + layout.noteTokens();
        if (next >= total) {
          layout.restore(positions);
          return false;
        }
        keptTokens -= saved;
        total = next;
        return true;
      };
      const saveGroup = (group: readonly number[], kind: string): void => {
        const groupMessages = group.map((index) => messages[index]!);
        save(groupMessages[0]!.id, kind, groupMessages.map(renderMessage).join('\n\n'), tokens.countMessages(groupMessages));
      };
      const dropGroups = (groups: readonly number[][], kind: string): number => {
        let count = 0;
        for (const group of groups) {
          if (total <= limit) break;
          if (layout.isRemoved(group[0]!) || !take(group)) continue;
          saveGroup(group, kind);
          count += 1;
        }
        return count;
      };
      const folded: FoldedMessage[] = [];
      const fold = (index: number): void => {
        const message = messages[index]!;
        save(message.id, 'user-message', JSON.stringify(message), tokens.countMessage(message));
        folded.push({ messageId: message.id, reason: WINDOW_GUARD_FOLD_REASON });
      };

      const { turns, checkpoints } = droppableGroups(messages);
      let droppedTurns = dropGroups(turns, 'turn');
      const latestUser = messages.findLastIndex((message) => message.role === 'user');
      const task = messages.findIndex((message) => turnOf(message) === 'user');
      const foldable = (message: Message, index: number) =>
        message.role === 'user' &&
        !message.pinned &&
        index !== latestUser &&
        !waiting.has(message.id) &&
        !message.parts.some((part) => part.type === 'tool-result');
      for (const [index, message] of messages.entries()) {
        if (total <= limit) break;
        if (index !== task && foldable(message, index) && take([index])) fold(index);
      }
      // A turn whose note cost as much as it saved may pay now that folds joined its neighbours.
      droppedTurns += dropGroups(turns, 'turn');
      let droppedCheckpoints = dropGroups(checkpoints, 'checkpoint');

      // Last resort: the task, with whatever droppable turns stand between it and the next user turn.
      let foldedTask = false;
      if (total > limit && task !== -1 && foldable(messages[task]!, task)) {
        const nextUser = messages.findIndex((message, index) => index > task && !layout.isRemoved(index) && turnOf(message) === 'user');
        const between = [...turns, ...checkpoints].filter(
          (group) => !layout.isRemoved(group[0]!) && group[0]! > task && (nextUser === -1 || group[0]! < nextUser),
        );
        const positions = [task, ...between.flat()];
        layout.remove(positions);
        const keepsShape = findMessageShapeRegressions(messages, layout.output(windowGuardNote), options.shape ?? 'strict').length === 0;
        layout.restore(positions);
        if (keepsShape && take(positions)) {
          foldedTask = true;
          fold(task);
          for (const group of between) {
            const checkpoint = group.some((index) => isCheckpointMessage(messages[index]!));
            saveGroup(group, checkpoint ? 'checkpoint' : 'turn');
            if (checkpoint) droppedCheckpoints += 1;
            else droppedTurns += 1;
          }
        }
      }

      const output = layout.output(windowGuardNote);
      const notes = layout.noteCount();
      // Declared in conversation order: the runtime quotes the first folded message (the task) longest.
      const order = new Map(messages.map((message, index) => [message.id, index]));
      folded.sort((a, b) => order.get(a.messageId)! - order.get(b.messageId)!);
      const limitations = droppedTurns > 0 ? [`dropped ${droppedTurns} oldest assistant turn(s) to fit the window`] : [];
      if (notes > 0) limitations.push(`left ${notes} one-line note(s) where the dropped turns were the only reply between two user messages`);
      if (folded.length > (foldedTask ? 1 : 0)) {
        limitations.push(`folded ${folded.length - (foldedTask ? 1 : 0)} oldest user message(s): user messages alone outgrew the window`);
      }
      if (droppedCheckpoints > 0) limitations.push(`dropped ${droppedCheckpoints} checkpoint(s): nothing else was left to drop`);
      if (foldedTask) limitations.push('folded the first user message (the task): nothing else was left');
      if (total > limit) {
        const taskLeft =
          task !== -1 && !layout.isRemoved(task) && foldable(messages[task]!, task) ? ', and the task (an assistant message would come first without it)' : '';
        limitations.push(`still ${total} tokens over a limit of ${limit}: what is left is system, pinned and the messages not answered yet${taskLeft}`);
      }
      // The host adds the digest, the stats and the timing.
      return { messages: output, removed, folded, warnings: limitations.map((message): CompactionWarning => ({ type: 'note', message })) };
    },
  };
}

/** The one-line assistant note that stands for `count` dropped messages between two user messages. */
export function windowGuardNote(count: number): Message {
  return {
    id: createMessageId('window-guard-note'),
    role: 'assistant',
    parts: [{ type: 'text', text: `${WINDOW_GUARD_NOTE_PREFIX} ${count} message${count === 1 ? '' : 's'} dropped to fit the window` }],
  };
}

/**
 * The messages the guard took out and the notes that follow from that: a note goes before a kept
 * user turn when, since the previous kept user turn, every assistant-turn message (assistant,
 * tool, results-only user) was dropped — never when there was none to begin with (the input's own
 * fault), never before the first kept user turn. And one goes last when every reply to the last
 * kept user message was dropped and it is no longer waiting for one: the next message added is a
 * user message, which must not follow it directly (one still waiting gets its reply next).
 */
class GuardLayout {
  private readonly messages: readonly Message[];
  private readonly turns: readonly ('system' | 'user' | 'assistant')[];
  private readonly removedAt = new Set<number>();
  private readonly noteCost = new Map<number, number>();
  private readonly waiting: ReadonlySet<string>;
  private readonly countNote: (count: number) => number;

  constructor(messages: readonly Message[], waiting: ReadonlySet<string>, countNote: (count: number) => number) {
    this.messages = messages;
    this.turns = messages.map(turnOf);
    this.waiting = waiting;
    this.countNote = countNote;
  }

  isRemoved(index: number): boolean {
    return this.removedAt.has(index);
  }

  remove(positions: readonly number[]): void {
    for (const index of positions) this.removedAt.add(index);
  }

  restore(positions: readonly number[]): void {
    for (const index of positions) this.removedAt.delete(index);
  }

  /**
   * Each note: the position of the kept user turn it goes before (the length of the input for the
   * last one), and how many messages it stands for.
   */
  notes(): { before: number; count: number }[] {
    const notes: { before: number; count: number }[] = [];
    let previous: 'user' | 'assistant' | undefined;
    let lastUser = -1;
    let dropped = 0;
    for (const [index, turn] of this.turns.entries()) {
      if (turn === 'system') continue;
      if (this.removedAt.has(index)) {
        if (turn === 'assistant') dropped += 1;
        continue;
      }
      if (turn === 'user' && previous === 'user' && dropped > 0) notes.push({ before: index, count: dropped });
      if (turn === 'user') lastUser = index;
      previous = turn;
      dropped = 0;
    }
    if (previous === 'user' && dropped > 0 && !this.waiting.has(this.messages[lastUser]!.id)) notes.push({ before: this.messages.length, count: dropped });
    return notes;
  }

  noteCount(): number {
    return this.notes().length;
  }

  noteTokens(): number {
    let total = 0;
    for (const { count } of this.notes()) {
      let cost = this.noteCost.get(count);
      if (cost === undefined) {
        cost = this.countNote(count);
        this.noteCost.set(count, cost);
      }
      total += cost;
    }
    return total;
  }

  output(note: (count: number) => Message): Message[] {
    const before = new Map(this.notes().map((entry) => [entry.before, entry.count]));
    const output: Message[] = [];
    for (const [index, message] of this.messages.entries()) {
      if (this.removedAt.has(index)) continue;
      const count = before.get(index);
      if (count !== undefined) output.push(note(count));
      output.push(message);
    }
    const last = before.get(this.messages.length);
    if (last !== undefined) output.push(note(last));
    return output;
  }
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
