import { TokenCounter, TokenLedger, createTokenizer, type Message } from '@ollm/core';
import type { FixtureSet } from './fixture-set.js';
import { median, millisecondsSince, timeSync } from './measure.js';

export interface ColdCount {
  readonly file: string;
  readonly conversations: number;
  readonly messages: number;
  readonly tokens: number;
  /** Median time of countMessages over every conversation of the file with a fresh counter. */
  readonly medianMs: number;
  readonly tokensPerSecond: number;
}

/** Cold o200k count of each fixture file: a fresh TokenCounter (and content cache) each repetition, so nothing is cached. */
export function measureColdCounts(set: FixtureSet, repetitions: number): ColdCount[] {
  const tokenizer = createTokenizer('o200k_base');
  tokenizer.countTokens('warm up the rank tables'); // loading the ranks is not counting
  return set.files.map((file) => {
    const conversations = file.conversations.map((conversation) => conversation.messages);
    let tokens = 0;
    const times: number[] = [];
    for (let repetition = 0; repetition < repetitions; repetition += 1) {
      // A tokenizer object of its own: core's content cache is shared per tokenizer object, and a
      // cold count must tokenise every text (the same functions, so the same counts).
      const counter = new TokenCounter({ ...tokenizer });
      times.push(timeSync(() => (tokens = conversations.reduce((sum, messages) => sum + counter.countMessages(messages), 0))));
    }
    const medianMs = median(times);
    return {
      file: file.file,
      conversations: conversations.length,
      messages: conversations.reduce((sum, messages) => sum + messages.length, 0),
      tokens,
      medianMs,
      tokensPerSecond: tokens / (medianMs / 1000),
    };
  });
}

export interface AppendCost {
  readonly messages: number;
  /**
   * Cold count of the whole conversation (a new TokenLedger over it), once. Messages repeat the
   * fixtures, so after the first pass gpt-tokenizer's own chunk cache makes this cheaper.
   */
  readonly coldCountMs: number;
  /** Median time of `ledger.append(message)` for a message not counted before. */
  readonly ledgerAppendMs: number;
  /** Median time of `counter.countMessages(all)` right after pushing such a message. */
  readonly countMessagesMs: number;
}

export interface IncrementalCost {
  readonly sizes: readonly AppendCost[];
  readonly appendsPerSize: number;
  /** largest / smallest conversation, per approach. */
  readonly ledgerRatio: number;
  readonly countMessagesRatio: number;
}

/** Fresh objects each time: the counter caches by identity, so a reused object would cost nothing. */
function copyOf(message: Message, id: string): Message {
  return { ...message, id };
}

/**
 * The cost of adding one message to conversations of each size (messages drawn round-robin from
 * the fixtures): `TokenLedger.append`, and `countMessages` over the whole conversation after the push.
 * The same `appends` source messages are added at every size, so only the size differs.
 */
export function measureIncrementalCost(pool: readonly Message[], sizes: readonly number[], appends: number): IncrementalCost {
  const counter = new TokenCounter(createTokenizer('o200k_base'));
  const additions = Array.from({ length: appends }, (_, index) => pool[(index * 7919) % pool.length]!);
  const results = sizes.map((size): AppendCost => {
    const conversation = Array.from({ length: size }, (_, index) => copyOf(pool[index % pool.length]!, `size${size}-${index}`));
    const start = process.hrtime.bigint();
    const ledger = new TokenLedger(counter, conversation);
    const coldCountMs = millisecondsSince(start);
    // Two separate loops: a 100,000-message walk right before an append would evict the caches
    // the append uses and charge the walk's cost to it.
    const ledgerTimes = additions.map((source, index) => {
      const message = copyOf(source, `size${size}-ledger-${index}`);
      return timeSync(() => ledger.append(message));
    });
    const countTimes = additions.map((source, index) => {
      conversation.push(copyOf(source, `size${size}-pushed-${index}`));
      return timeSync(() => counter.countMessages(conversation));
    });
    return { messages: size, coldCountMs, ledgerAppendMs: median(ledgerTimes), countMessagesMs: median(countTimes) };
  });
  const first = results[0]!;
  const last = results[results.length - 1]!;
  return {
    sizes: results,
    appendsPerSize: appends,
    ledgerRatio: last.ledgerAppendMs / first.ledgerAppendMs,
    countMessagesRatio: last.countMessagesMs / first.countMessagesMs,
  };
}
