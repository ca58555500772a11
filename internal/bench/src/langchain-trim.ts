import { trimMessages, type BaseMessage } from '@langchain/core/messages';
import type { Message, TokenCounter } from '@ollm/core';
import { fromLangChainMessage } from './langchain-messages.js';

/**
 * Core's TokenCounter as LangChain's `tokenCounter`: each LangChain message is converted back to
 * an ollm message and counted exactly as ollm counts it. trimMessages copies its input, so the
 * per-object cache only lasts one call; `byId` (optional) keeps counts across calls, as a live
 * application would — correct here because trimMessages without `allowPartial` never edits a message.
 */
export function langChainTokenCounter(
  counter: TokenCounter,
  originals: ReadonlyMap<string, Message>,
  byId?: Map<string, number>,
): (messages: BaseMessage[]) => number {
  const byObject = new WeakMap<BaseMessage, number>();
  return (messages) => {
    let total = 0;
    for (const message of messages) {
      let tokens = byObject.get(message) ?? (message.id !== undefined ? byId?.get(message.id) : undefined);
      if (tokens === undefined) {
        tokens = counter.countMessage(fromLangChainMessage(message, originals));
        byObject.set(message, tokens);
        if (message.id !== undefined) byId?.set(message.id, tokens);
      }
      total += tokens;
    }
    return total;
  };
}

export type LangChainStart = 'human' | 'human-or-ai';

/**
 * `trimMessages`, strategy "last", keeping the system prompt. `startOn` decides where the kept
 * tail may begin: `human` is LangChain's documented choice for chat models; `human-or-ai` also
 * lets it begin at an assistant turn, which still never orphans a ToolMessage.
 */
export async function langChainTrim(
  messages: readonly BaseMessage[],
  maxTokens: number,
  tokenCounter: (messages: BaseMessage[]) => number,
  start: LangChainStart,
): Promise<{ messages: BaseMessage[]; holes: number }> {
  const trimmed = await trimMessages([...messages], {
    maxTokens,
    strategy: 'last',
    tokenCounter,
    includeSystem: true,
    allowPartial: false,
    startOn: start === 'human' ? 'human' : ['human', 'ai'],
  });
  // With includeSystem, when no tail starting on `startOn` fits, @langchain/core 1.4.0 returns
  // `[undefined]` (it reads element 0 of an empty list); the holes are dropped and counted.
  const messagesOnly = trimmed.filter((message): message is BaseMessage => message !== undefined);
  return { messages: messagesOnly, holes: trimmed.length - messagesOnly.length };
}
