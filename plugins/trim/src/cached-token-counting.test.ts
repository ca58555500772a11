import { compactWith, createTokenizer, type Message, TokenCounter, type TokenCounting, type Tokenizer } from '@ollm/core';
import { describe, expect, it, vi } from 'vitest';
import { withContentCache } from './cached-token-counting.js';
import trim from './index.js';
import { ConversationBuilder, numberedLines } from './test-support/conversation-builder.js';

const o200k = createTokenizer('o200k_base');
const longProse = Array.from({ length: 30 }, (_, index) => `Now I will look at step ${index} of the plan, carefully and slowly.`).join(' ');

function heredoc(file: string, lines: number): string {
  return `cat > /testbed/${file} << 'EOF'\n${numberedLines(lines, file)}\nEOF\npython /testbed/${file}`;
}

/** Every phase has work at half the tokens: reasoning, large outputs, long calls, long old text. */
function agentConversation(): Message[] {
  return new ConversationBuilder()
    .system('You are a coding agent.')
    .user('Fix the DurationField help text.')
    .assistant(`The issue is in django/db/models/fields/__init__.py. ${longProse}`, 'old reasoning '.repeat(50))
    .toolRound(heredoc('reproduce.py', 120), numberedLines(500))
    .toolRound(heredoc('test_fix.py', 200), numberedLines(90, 'match'))
    .toolRound('python -m pytest', numberedLines(300, 'test'))
    .assistant(`Looking again. ${longProse}`)
    .toolRound('ls', 'a.py')
    .toolRound('ls', 'b.py')
    .toolRound('ls', 'c.py')
    .assistant('Done.', 'recent reasoning')
    .build();
}

/** o200k, with every call to the BPE counted. */
function spiedTokenizer(): Tokenizer & { countTokens: ReturnType<typeof vi.fn> } {
  return { ...o200k, countTokens: vi.fn((text: string) => o200k.countTokens(text)) };
}

describe('trim across calls', () => {
  it('does no tokenisation when the same conversation, parsed again, is trimmed again', async () => {
    const tokenizer = spiedTokenizer();
    const messages = agentConversation();
    const limit = Math.floor(new TokenCounter(o200k).countMessages(messages) / 5);
    const first = await compactWith(trim, messages, { config: { limit }, context: { tokens: new TokenCounter(tokenizer) } });
    expect(first.removed.map((entry) => entry.kind)).toEqual(expect.arrayContaining(['reasoning', 'tool-result', 'tool-call-input']));
    expect(tokenizer.countTokens.mock.calls.length).toBeGreaterThan(0);
    tokenizer.countTokens.mockClear();

    // A new counter and new objects (as from reading the transcript again): only the content is the same.
    const again = JSON.parse(JSON.stringify(messages)) as Message[];
    const second = await compactWith(trim, again, { config: { limit }, context: { tokens: new TokenCounter(tokenizer) } });
    expect(tokenizer.countTokens).not.toHaveBeenCalled();
    expect(second.messages).toEqual(first.messages);
    expect(second.stats.tokensAfter).toBe(first.stats.tokensAfter);
  });

  it('keeps its own content cache for a host counter that is not core’s, across calls with that counter', async () => {
    const inner = new TokenCounter(o200k, { contentCache: false });
    const countText = vi.fn((text: string) => inner.countText(text));
    const host: TokenCounting = {
      tokenizer: o200k,
      countText,
      countPartText: (part) => inner.countPartText(part),
      countMessage: (message) => inner.countMessage(message),
      countMessages: (messages) => inner.countMessages(messages),
    };
    const messages = agentConversation();
    const limit = Math.floor(inner.countMessages(messages) / 5);
    const first = await compactWith(trim, messages, { config: { limit }, context: { tokens: host } });
    expect(countText.mock.calls.length).toBeGreaterThan(0);
    countText.mockClear();
    const second = await compactWith(trim, messages, { config: { limit }, context: { tokens: host } });
    expect(countText).not.toHaveBeenCalled();
    expect(second.messages).toEqual(first.messages);
  });

  it('uses core’s counter as it is, and gives the same counts as the counter it wraps', () => {
    const counter = new TokenCounter(o200k);
    expect(withContentCache(counter)).toBe(counter);
    const uncached = new TokenCounter(o200k, { contentCache: false });
    const wrapped = withContentCache(uncached);
    expect(wrapped).not.toBe(uncached);
    for (const text of ['hello world', 'def f():\n    return 1\n', '日本語', '']) expect(wrapped.countText(text)).toBe(uncached.countText(text));
    expect(withContentCache(uncached).countText('hello world')).toBe(2);
  });
});
