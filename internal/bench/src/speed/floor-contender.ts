import { createHash } from 'node:crypto';
import { createTokenizer, type Message } from '@ollm/core';
import type { SpeedContender } from './speed-contender.js';
import { uncachedMessageTokens } from './uncached-count.js';

/**
 * What any compaction of a conversation it has not seen must do at least: parse it, tokenise it
 * once exactly, hash it once. (The JSON is the conversation's ollm messages; every text goes to
 * the tokenizer itself, past every cache, so the floor stays a floor in a process that has seen it.)
 */
export const floorContender: SpeedContender = {
  name: 'floor',
  label: 'floor: JSON.parse + one exact tokenisation + one sha256',
  family: 'floor',
  modes: ['fresh'],
  prepare(messages) {
    const json = JSON.stringify(messages);
    return {
      arm: () => () => {
        const tokenizer = createTokenizer('o200k_base');
        let tokens = 0;
        for (const message of JSON.parse(json) as Message[]) tokens += uncachedMessageTokens(message, tokenizer);
        return { tokens, digest: createHash('sha256').update(json).digest('hex') };
      },
    };
  },
};
