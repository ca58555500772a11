/**
 * Token counting of one transcript in a process of its own, for the hostile-input bench:
 *
 *   node internal/bench/dist/speed/hostile-count.js FILE
 *
 * Prints one JSON line: {tokens, readMs, countMs, maxRssMegabytes} (a fresh o200k TokenCounter;
 * peak memory from process.resourceUsage()).
 */
import { TokenCounter, createTokenizer } from '@ollm/core';
import { readTranscript } from '@ollm/transcripts';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: hostile-count.js FILE\n');
  process.exit(2);
}
const readStarted = performance.now();
const transcript = await readTranscript(file);
const readMs = performance.now() - readStarted;
const tokenizer = createTokenizer('o200k_base');
tokenizer.countTokens('load the rank tables'); // loading them is not counting
const countStarted = performance.now();
const counter = new TokenCounter(tokenizer);
const tokens = transcript.conversations.reduce((sum, conversation) => sum + counter.countMessages(conversation.messages), 0);
const countMs = performance.now() - countStarted;
process.stdout.write(`${JSON.stringify({ tokens, readMs, countMs, maxRssMegabytes: process.resourceUsage().maxRSS / 1024 })}\n`);
