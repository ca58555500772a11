import { describe, expect, it, vi } from 'vitest';
import type { Message } from '../messages/message.js';
import { MESSAGE_OVERHEAD_TOKENS, TokenCounter } from './token-counter.js';
import { TokenLedger } from './token-ledger.js';
import type { Tokenizer } from './tokenizer.js';

function characterTokenizer(): Tokenizer {
  return {
    encoding: 'o200k_base',
    countTokens: vi.fn((text: string) => text.length),
    encode: () => [],
    decode: () => '',
  };
}

const message = (id: string, body: string): Message => ({ id, role: 'user', parts: [{ type: 'text', text: body }] });

describe('TokenLedger', () => {
  it('starts from the count of the given messages', () => {
    const counter = new TokenCounter(characterTokenizer());
    const ledger = new TokenLedger(counter, [message('a', 'abc'), message('b', 'de')]);
    expect(ledger.total).toBe(5 + 2 * MESSAGE_OVERHEAD_TOKENS);
    expect(ledger.messageCount).toBe(2);
    expect(new TokenLedger(counter).total).toBe(0);
  });

  it('append adds exactly the new message, tokenising nothing else', () => {
    const tokenizer = characterTokenizer();
    // Without the content cache, every message object is tokenised once (texts repeat here).
    const counter = new TokenCounter(tokenizer, { contentCache: false });
    const history = Array.from({ length: 1000 }, (_, index) => message(`m${index}`, 'x'.repeat(index % 7)));
    const ledger = new TokenLedger(counter, history);
    const before = ledger.total;
    expect(tokenizer.countTokens).toHaveBeenCalledTimes(1000);
    expect(ledger.append(message('new', 'hello'))).toBe(5 + MESSAGE_OVERHEAD_TOKENS);
    expect(ledger.total).toBe(before + 5 + MESSAGE_OVERHEAD_TOKENS);
    expect(ledger.messageCount).toBe(1001);
    expect(tokenizer.countTokens).toHaveBeenCalledTimes(1001);
    expect(ledger.total).toBe(counter.countMessages([...history, message('again', 'hello')]));
  });

  it('reset replaces the conversation, reusing cached counts', () => {
    const tokenizer = characterTokenizer();
    const counter = new TokenCounter(tokenizer);
    const history = [message('a', 'aaaa'), message('b', 'bbbbbbbb'), message('c', 'cc')];
    const ledger = new TokenLedger(counter, history);
    ledger.reset([history[0]!, history[2]!]);
    expect(ledger.total).toBe(6 + 2 * MESSAGE_OVERHEAD_TOKENS);
    expect(ledger.messageCount).toBe(2);
    expect(tokenizer.countTokens).toHaveBeenCalledTimes(3);
  });
});
