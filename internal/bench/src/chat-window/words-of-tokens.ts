import type { TokenCounter } from '@ollm/core';

const WORDS = [
  'context',
  'window',
  'budget',
  'reply',
  'server',
  'request',
  'paste',
  'token',
  'model',
  'message',
  'history',
  'summary',
  'checkpoint',
  'decision',
  'function',
  'module',
  'error',
  'value',
  'config',
  'session',
];

/** Deterministic prose of about `tokens` o200k tokens (varied by `seed`), cut to the count exactly. */
export function wordsOfTokens(tokens: number, seed: number, counter: TokenCounter): string {
  const words: string[] = [];
  let state = (seed * 2_654_435_761) >>> 0;
  for (let index = 0; index < tokens; index += 1) {
    state = (state * 1_103_515_245 + 12_345) >>> 0;
    words.push(WORDS[state % WORDS.length]!);
  }
  let text = words.join(' ');
  while (counter.countText(text) > tokens) text = text.slice(0, text.lastIndexOf(' '));
  return text;
}
