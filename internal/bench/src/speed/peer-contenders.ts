import type { BaseMessage } from '@langchain/core/messages';
import type { ModelMessage } from 'ai';
import { createTokenizer, type Message } from '@ollm/core';
import { modelMessageCounter, pruneToBudget } from '../future-need/peer-ladder.js';
import { fromLangChainMessage, toLangChainMessages } from '../langchain-messages.js';
import { langChainTokenCounter, langChainTrim } from '../langchain-trim.js';
import { toModelMessages } from '../model-messages.js';
import { indexById } from '../original-fields.js';
import { freshCounter, type SpeedContender } from './speed-contender.js';
import { uncachedMessageTokens } from './uncached-count.js';

/**
 * LangChain's `tokenCounter` as an application that caches writes it: each message counted once
 * by id and kept across calls (warm: the counts of every message are already there).
 */
export const langChainCachedContender: SpeedContender = {
  name: 'langchain-cached',
  label: 'LangChain trimMessages, cached counter',
  family: 'LangChain.js',
  modes: ['warm', 'fresh'],
  warmWhenArmed: true,
  prepare(messages, limit) {
    const originals = indexById(messages);
    const converted = toLangChainMessages(messages);
    const warmCounts = new Map<string, number>();
    return {
      arm(mode) {
        const counts = mode === 'warm' ? warmCounts : new Map<string, number>();
        const counter = langChainTokenCounter(freshCounter(), originals, counts);
        if (mode === 'warm' && counts.size === 0) counter(converted);
        return () => langChainTrim(converted, limit, counter, 'human-or-ai');
      },
    };
  },
};

/**
 * A plain `tokenCounter`, as LangChain's documentation writes one: every message it is given is
 * tokenised, every time. trimMessages calls it once per message it drops, on all that is left, so
 * the work grows with the square of the conversation.
 */
export function plainLangChainCounter(originals: ReadonlyMap<string, Message>): (messages: BaseMessage[]) => number {
  // Past core's TokenCounter: its content cache, shared per tokenizer, would make this a cached counter.
  const tokenizer = createTokenizer('o200k_base');
  return (messages) => {
    let total = 0;
    for (const message of messages) total += uncachedMessageTokens(fromLangChainMessage(message, originals), tokenizer);
    return total;
  };
}

export const langChainPlainContender: SpeedContender = {
  name: 'langchain-plain',
  label: 'LangChain trimMessages, plain counter',
  family: 'LangChain.js',
  modes: ['fresh'],
  costly: true,
  prepare(messages, limit) {
    const originals = indexById(messages);
    const converted = toLangChainMessages(messages);
    return { arm: () => () => langChainTrim(converted, limit, plainLangChainCounter(originals), 'human-or-ai') };
  },
};

/** AI SDK `pruneMessages` driven to the budget by future-need's ladder (counts cached by message shape). */
export const aiSdkLadderContender: SpeedContender = {
  name: 'ai-sdk-ladder',
  label: 'AI SDK pruneMessages, driven to the budget',
  family: 'AI SDK',
  modes: ['warm', 'fresh'],
  prepare(messages, limit) {
    const originals = indexById(messages);
    const converted: ModelMessage[] = toModelMessages(messages);
    let warm: ((messages: ModelMessage[]) => number) | undefined;
    return {
      arm(mode) {
        const count = mode === 'warm' ? (warm ??= modelMessageCounter(originals, freshCounter())) : modelMessageCounter(originals, freshCounter());
        return () => pruneToBudget(converted, limit, count);
      },
    };
  },
};
