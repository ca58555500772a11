import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/message.js';
import { messagesMemo } from './messages-memo.js';
import { findIntegrityViolations } from './validate-compaction.js';
import { TokenCounter } from '../tokens/token-counter.js';
import { createTokenizer } from '../tokens/bpe-tokenizer.js';
import { buildCompactionResult } from '../host/build-compaction-result.js';

const text = (id: string, role: Message['role'], value: string): Message => ({ id, role, parts: [{ type: 'text', text: value }] });

describe('messagesMemo', () => {
  it('reads an array once while it holds the same messages, and again once one is replaced or added', () => {
    let reads = 0;
    const ids = messagesMemo((messages) => {
      reads += 1;
      return messages.map((message) => message.id).join(',');
    });
    const messages = [text('a', 'user', 'hi'), text('b', 'assistant', 'hello')];
    expect(ids(messages)).toBe('a,b');
    expect(ids(messages)).toBe('a,b');
    expect(reads).toBe(1);
    messages[1] = text('c', 'assistant', 'hello');
    expect(ids(messages)).toBe('a,c');
    messages.push(text('d', 'user', 'more'));
    expect(ids(messages)).toBe('a,c,d');
    expect(reads).toBe(3);
    // Another array is read on its own, even with the same messages.
    expect(ids([...messages])).toBe('a,c,d');
    expect(reads).toBe(4);
  });

  it('leaves validation seeing an output changed in place after it was checked', () => {
    const tokens = new TokenCounter(createTokenizer());
    const input = [text('s', 'system', 'rules'), text('u', 'user', 'question'), text('a', 'assistant', 'a long answer that can be cut')];
    const output = [input[0]!, input[1]!, text('a', 'assistant', 'cut')];
    const result = () => buildCompactionResult({ input, output, tokens, startedAt: 0 });
    expect(findIntegrityViolations(input, result(), tokens)).toEqual([]);
    output[1] = text('u', 'user', 'a question edited');
    expect(findIntegrityViolations(input, result(), tokens).map((violation) => violation.rule)).toContain('user-unchanged');
    output.splice(1, 1);
    expect(findIntegrityViolations(input, result(), tokens).map((violation) => violation.rule)).toContain('user-unchanged');
  });
});
