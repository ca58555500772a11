import { pruneMessages, type ModelMessage } from 'ai';
import { TokenCounter, createTokenizer, type Message } from '@ollm/core';
import { fromModelMessages, toModelMessages } from '../model-messages.js';
import { indexById } from '../original-fields.js';
// Type only: the cold-process probe loads this module without the ollm providers strategies.js imports.
import type { Strategy } from '../strategies.js';

/** The settings of `pruneMessages` (ai 6: `reasoning`, `toolCalls`, `emptyMessages`). */
export type PruneSetting = Required<Omit<Parameters<typeof pruneMessages>[0], 'messages'>>;

/**
 * pruneMessages settings from least to most pruning, for a conversation of `messageCount`
 * messages: reasoning removed alone; then tool calls and their results removed before the last N
 * messages for N = messageCount - 1 down to 2 (each rung prunes one more message); then before the
 * last message; then all of them. Empty messages are removed on every rung. pruneMessages never
 * touches system or user messages and removes a call with its result, so every rung stays paired.
 */
export function pruneLadder(messageCount: number): PruneSetting[] {
  const rung = (toolCalls: PruneSetting['toolCalls']): PruneSetting => ({ reasoning: 'all', toolCalls, emptyMessages: 'remove' });
  const ladder = [rung('none')];
  for (let last = messageCount - 1; last >= 2; last -= 1) ladder.push(rung(`before-last-${last}-messages`));
  ladder.push(rung('before-last-message'), rung('all'));
  return ladder;
}

export function describePruneSetting(setting: PruneSetting): string {
  const toolCalls = typeof setting.toolCalls === 'string' ? setting.toolCalls : JSON.stringify(setting.toolCalls);
  return `reasoning ${setting.reasoning}, toolCalls ${toolCalls}, emptyMessages ${setting.emptyMessages}`;
}

export interface LadderResult {
  readonly messages: ModelMessage[];
  /** Index of the rung used in `pruneLadder(messages.length)`. */
  readonly rung: number;
  readonly setting: PruneSetting;
  readonly tokens: number;
  /** False when even the last rung is over the budget (its output is returned). */
  readonly fits: boolean;
}

/**
 * The first (least pruning) rung whose output is within `budget`. Each rung prunes everything the
 * rung above it prunes and more, so the outputs shrink rung by rung and a binary search finds the
 * rung a walk from the top would (log2 of the rungs instead of half of them: pruneMessages is
 * linear in the conversation, so a walk would be quadratic). If none fits, the last rung's output.
 */
export function pruneToBudget(messages: ModelMessage[], budget: number, count: (messages: ModelMessage[]) => number): LadderResult {
  const ladder = pruneLadder(messages.length);
  const tried = new Map<number, LadderResult>();
  const at = (rung: number): LadderResult => {
    let result = tried.get(rung);
    if (!result) {
      const setting = ladder[rung]!;
      const pruned = pruneMessages({ messages, ...setting });
      const tokens = count(pruned);
      result = { messages: pruned, rung, setting, tokens, fits: tokens <= budget };
      tried.set(rung, result);
    }
    return result;
  };
  let low = 0;
  let high = ladder.length - 1;
  if (!at(high).fits) return at(high);
  // Invariant: rung `high` fits; every rung below `low` does not.
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (at(middle).fits) high = middle;
    else low = middle + 1;
  }
  return at(high);
}

/**
 * ollm's count of ModelMessages: each converted back to an ollm message and counted by `counter`.
 * pruneMessages only drops parts, so a message is known by its id and the parts it still has;
 * a count is computed once per such shape.
 */
export function modelMessageCounter(originals: ReadonlyMap<string, Message>, counter: TokenCounter): (messages: ModelMessage[]) => number {
  const byShape = new Map<string, number>();
  return (messages) => {
    let total = 0;
    for (const message of messages) {
      const id = (message.providerOptions?.['ollm'] as { id?: string } | undefined)?.id ?? '';
      const shape =
        typeof message.content === 'string'
          ? `${id}|string`
          : `${id}|${message.content.map((part) => `${part.type}:${'toolCallId' in part ? part.toolCallId : ''}`).join(',')}`;
      let tokens = byShape.get(shape);
      if (tokens === undefined) {
        tokens = counter.countMessage(fromModelMessages([message], originals)[0]!);
        byShape.set(shape, tokens);
      }
      total += tokens;
    }
    return total;
  };
}

/** AI SDK `pruneMessages` driven to a token budget by the ladder above. */
export const aiSdkLadderStrategy: Strategy = {
  name: 'ai-sdk pruneMessages (ladder to budget)',
  family: 'AI SDK',
  hasTokenTarget: true,
  prepare(messages) {
    const originals = indexById(messages);
    const converted = toModelMessages(messages);
    let result: LadderResult | undefined;
    // Warm runs share one counter (its counts by shape kept across runs), as a live application would.
    let warmCount: ((messages: ModelMessage[]) => number) | undefined;
    const newCount = () => modelMessageCounter(originals, new TokenCounter(createTokenizer('o200k_base')));
    return {
      arm(limit, warm) {
        const count = warm ? (warmCount ??= newCount()) : newCount();
        return async () => {
          result = pruneToBudget(converted, limit, count);
        };
      },
      output: () => (result ? fromModelMessages(result.messages, originals) : messages),
      error: () => undefined,
      detail: () => (result ? `rung ${result.rung}: ${describePruneSetting(result.setting)}` : undefined),
    };
  },
};
