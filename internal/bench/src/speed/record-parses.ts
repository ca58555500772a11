/**
 * The code texts `mask,code-aware,trim` hands tree-sitter, recorded in a process of their own
 * (spawned by code-parse-contender.ts), so that nothing the pipeline warms — the tokenizer's
 * merges, compiled code, the wasm parser's tiers — is warm where the parses are timed:
 *
 *   node internal/bench/dist/speed/record-parses.js < {"earlier":[{"messages","limit"}],"messages":[…],"limit":N}
 *
 * Compacts each earlier conversation first (unrecorded: code-aware's cache then skips what it
 * would skip in a process that compacted them before), then `messages` to `limit`. Prints one JSON
 * array: {grammar, text} per parse, `grammar` the wasm file the parser's language was loaded from.
 */
import { compactWith, createTokenizer, TokenCounter, type Message } from '@ollm/core';
import { Language, Parser } from 'web-tree-sitter';
import { loadOllmProvider } from './ollm-contender.js';

interface RecordInput {
  readonly earlier: readonly { readonly messages: readonly Message[]; readonly limit: number }[];
  readonly messages: readonly Message[];
  readonly limit: number;
}

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordInput;

const grammars = new Map<Language, string>();
const load = Language.load.bind(Language);
Language.load = async (source: string | Uint8Array) => {
  const language = await load(source);
  if (typeof source === 'string') grammars.set(language, source);
  return language;
};
let recording = false;
const parses: { grammar: string; text: string }[] = [];
const parse = Parser.prototype.parse;
Parser.prototype.parse = function (this: Parser, ...args: Parameters<Parser['parse']>) {
  const [text] = args;
  const grammar = this.language ? grammars.get(this.language) : undefined;
  if (recording && typeof text === 'string' && grammar !== undefined) parses.push({ grammar, text });
  return parse.apply(this, args);
};

const pipeline = await loadOllmProvider('mask,code-aware,trim');
const compact = (messages: readonly Message[], limit: number) =>
  compactWith(pipeline, messages, { config: { limit }, context: { tokens: new TokenCounter(createTokenizer('o200k_base')) } });
for (const { messages, limit } of input.earlier) await compact(messages, limit);
recording = true;
await compact(input.messages, input.limit);
process.stdout.write(JSON.stringify(parses));
