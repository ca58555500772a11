import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { Message } from '../messages/message.js';
import { createTokenizer } from './bpe-tokenizer.js';
import { ContentTokenCache } from './content-token-cache.js';
import { MESSAGE_OVERHEAD_TOKENS, TOOL_CALL_OVERHEAD_TOKENS, TokenCounter } from './token-counter.js';
import type { Tokenizer } from './tokenizer.js';

const o200k = createTokenizer('o200k_base');

/** A tokenizer that counts one token per character and records every call. */
function spyTokenizer(): Tokenizer & { countTokens: ReturnType<typeof vi.fn> } {
  return {
    encoding: 'o200k_base',
    countTokens: vi.fn((text: string) => text.length),
    encode: (text) => [...text].map((character) => character.charCodeAt(0)),
    decode: (tokens) => String.fromCharCode(...tokens),
  };
}

describe('TokenCounter', () => {
  it('documents its overheads: 4 tokens per message and 3 per tool call', () => {
    expect(MESSAGE_OVERHEAD_TOKENS).toBe(4);
    expect(TOOL_CALL_OVERHEAD_TOKENS).toBe(3);
  });

  it('counts a text message as its text plus the message overhead', () => {
    const counter = new TokenCounter(o200k);
    const message: Message = { id: 'a', role: 'user', parts: [{ type: 'text', text: 'hello world' }] };
    expect(counter.countMessage(message)).toBe(2 + MESSAGE_OVERHEAD_TOKENS);
    expect(counter.countText('hello world')).toBe(2);
  });

  it('adds the name, every part, and the tool call overhead', () => {
    const counter = new TokenCounter(o200k);
    const message: Message = {
      id: 'b',
      role: 'assistant',
      name: 'hello',
      parts: [
        { type: 'reasoning', text: 'hello world' },
        { type: 'tool-call', callId: 'c', name: 'bash', input: { command: 'ls' }, rawInput: 'hello world' },
      ],
    };
    // name "hello" = 1, reasoning = 2, tool call "bash hello world" = 3
    expect(counter.countMessage(message)).toBe(MESSAGE_OVERHEAD_TOKENS + 1 + 2 + 3 + TOOL_CALL_OVERHEAD_TOKENS);
  });

  it('counts in the encoding of its tokenizer', () => {
    const message: Message = { id: 'c', role: 'user', parts: [{ type: 'text', text: '日本語のテキスト' }] };
    expect(new TokenCounter(o200k).countMessage(message)).toBe(6 + MESSAGE_OVERHEAD_TOKENS);
    expect(new TokenCounter(createTokenizer('cl100k_base')).countMessage(message)).toBe(8 + MESSAGE_OVERHEAD_TOKENS);
  });

  it('tokenises each message once, however many times the conversation is counted', () => {
    const tokenizer = spyTokenizer();
    const counter = new TokenCounter(tokenizer);
    const conversation: Message[] = Array.from({ length: 50 }, (_, index) => ({
      id: `m${index}`,
      role: index % 2 === 0 ? 'user' : 'assistant',
      parts: [{ type: 'text', text: `message number ${index}` }],
    }));
    const first = counter.countMessages(conversation);
    for (let round = 0; round < 5; round += 1) expect(counter.countMessages(conversation)).toBe(first);
    expect(tokenizer.countTokens).toHaveBeenCalledTimes(50);

    conversation.push({ id: 'new', role: 'user', parts: [{ type: 'text', text: 'one more' }] });
    expect(counter.countMessages(conversation)).toBe(first + 'one more'.length + MESSAGE_OVERHEAD_TOKENS);
    expect(tokenizer.countTokens).toHaveBeenCalledTimes(51);
  });

  it('counts an edited copy afresh (the cache is keyed by object, and messages are immutable)', () => {
    const tokenizer = spyTokenizer();
    const counter = new TokenCounter(tokenizer);
    const original: Message = { id: 'x', role: 'tool', parts: [{ type: 'tool-result', callId: 'c', output: 'a'.repeat(100) }] };
    const edited: Message = { ...original, parts: [{ type: 'tool-result', callId: 'c', output: 'a'.repeat(10) }] };
    expect(counter.countMessage(original)).toBe(100 + MESSAGE_OVERHEAD_TOKENS);
    expect(counter.countMessage(edited)).toBe(10 + MESSAGE_OVERHEAD_TOKENS);
  });

  it('tokenises only the new part of a copy that keeps the other parts, and serves counted parts', () => {
    const tokenizer = spyTokenizer();
    const counter = new TokenCounter(tokenizer);
    const call = { type: 'tool-call' as const, callId: 'c', name: 'bash', input: { command: 'ls' }, rawInput: '{"command":"ls"}' };
    const original: Message = { id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'long text' }, call] };
    counter.countMessage(original);
    expect(tokenizer.countTokens).toHaveBeenCalledTimes(2);
    const edited: Message = { ...original, parts: [{ type: 'text', text: 'short' }, call] };
    expect(counter.countMessage(edited)).toBe(MESSAGE_OVERHEAD_TOKENS + 5 + 'bash {"command":"ls"}'.length + TOOL_CALL_OVERHEAD_TOKENS);
    expect(tokenizer.countTokens).toHaveBeenCalledTimes(3);
    expect(counter.countPartText(original.parts[0]!)).toBe('long text'.length);
    expect(tokenizer.countTokens).toHaveBeenCalledTimes(3);
  });

  it('counts an empty conversation as zero', () => {
    expect(new TokenCounter(o200k).countMessages([])).toBe(0);
  });

  it('counts the same conversation parsed again from JSON with no tokenisation at all', () => {
    const tokenizer = spyTokenizer();
    const conversation: Message[] = [
      { id: 's', role: 'system', parts: [{ type: 'text', text: 'You are a careful engineer.' }] },
      {
        id: 'a',
        role: 'assistant',
        name: 'agent',
        parts: [{ type: 'tool-call', callId: 'c', name: 'bash', input: { command: 'cat setup.py' }, rawInput: '{"command":"cat setup.py"}' }],
      },
      { id: 't', role: 'tool', parts: [{ type: 'tool-result', callId: 'c', output: 'from setuptools import setup\n'.repeat(40) }] },
    ];
    const first = new TokenCounter(tokenizer).countMessages(conversation);
    const calls = tokenizer.countTokens.mock.calls.length;
    expect(calls).toBe(4);
    // New objects, a new counter: only the content is the same.
    const again = JSON.parse(JSON.stringify(conversation)) as Message[];
    expect(new TokenCounter(tokenizer).countMessages(again)).toBe(first);
    expect(new TokenCounter(tokenizer).countText('from setuptools import setup\n'.repeat(40))).toBe(1_160);
    expect(tokenizer.countTokens).toHaveBeenCalledTimes(calls);
    // Without the content cache the copy is tokenised again.
    expect(new TokenCounter(tokenizer, { contentCache: false }).countMessages(again)).toBe(first);
    expect(tokenizer.countTokens).toHaveBeenCalledTimes(2 * calls);
  });

  it('gives the same counts with and without the content cache, however small the cache', () => {
    const o200kTexts = fc.array(fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('hello world', 'def f():\n    return 1', '日本語のテキスト')), {
      maxLength: 40,
    });
    fc.assert(
      fc.property(o200kTexts, fc.integer({ min: 2, max: 8 }), (texts, maxEntries) => {
        const cached = new TokenCounter(o200k, { contentCache: new ContentTokenCache({ maxEntries, maxCharacters: 64 }) });
        const uncached = new TokenCounter(o200k, { contentCache: false });
        for (const text of [...texts, ...texts.reverse()]) expect(cached.countText(text)).toBe(uncached.countText(text));
        const messages: Message[] = texts.map((text, index) => ({
          id: `m${index}`,
          role: 'user',
          name: text.slice(0, 5) || undefined,
          parts: [{ type: 'text', text }],
        }));
        expect(cached.countMessages(messages)).toBe(uncached.countMessages(messages));
      }),
      { numRuns: 100 },
    );
  });

  it("counts a counted tool call's arguments from the call's count, not by tokenising them again", () => {
    const spy = { ...o200k, countTokens: vi.fn((text: string) => o200k.countTokens(text)), countTokensAfter: vi.fn(o200k.countTokensAfter!) };
    const counter = new TokenCounter(spy, { contentCache: new ContentTokenCache() });
    const raw = JSON.stringify({ command: `cat <<'EOF' > reproduce.py\n${'print("line")\n'.repeat(60)}EOF` });
    const message: Message = {
      id: 'c',
      role: 'assistant',
      parts: [{ type: 'tool-call', callId: 'call-1', name: 'bash', input: JSON.parse(raw) as unknown, rawInput: raw }],
    };
    counter.countMessage(message);
    spy.countTokens.mockClear();
    expect(counter.countText(raw)).toBe(o200k.countTokens(raw));
    expect(spy.countTokens).not.toHaveBeenCalled();
    expect(spy.countTokensAfter).toHaveBeenCalledTimes(1);
    // A text that is no counted call's arguments is tokenised as ever.
    expect(counter.countText(`${raw} `)).toBe(o200k.countTokens(`${raw} `));
    expect(spy.countTokens).toHaveBeenCalledTimes(1);
  });

  it('counts up to a limit only as far as needed, caching only exact counts', () => {
    const spy = { ...o200k, countTokens: vi.fn((text: string) => o200k.countTokens(text)), countTokensUpTo: vi.fn(o200k.countTokensUpTo!) };
    const counter = new TokenCounter(spy, { contentCache: new ContentTokenCache() });
    const long = 'word '.repeat(2_000);
    expect(counter.countTextUpTo(long, 100)).toBeGreaterThan(100);
    expect(spy.countTokensUpTo).toHaveBeenCalledTimes(1);
    // Not cached: the full count still tokenises it.
    expect(counter.countText(long)).toBe(o200k.countTokens(long));
    expect(spy.countTokens).toHaveBeenCalledTimes(1);
    // Now cached: the limit is answered from the exact count.
    expect(counter.countTextUpTo(long, 100)).toBe(o200k.countTokens(long));
    expect(spy.countTokensUpTo).toHaveBeenCalledTimes(1);
    const short = 'a short text that is under the limit';
    expect(counter.countTextUpTo(short, 100)).toBe(o200k.countTokens(short));
    spy.countTokens.mockClear();
    expect(counter.countText(short)).toBe(o200k.countTokens(short));
    expect(spy.countTokens).not.toHaveBeenCalled();
  });
});
