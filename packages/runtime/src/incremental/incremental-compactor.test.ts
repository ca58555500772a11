import { describe, expect, it } from 'vitest';
import { createTokenizer, saveRemovedContent, sha256Hex, TokenCounter, type Message } from '@ollm/core';
import { ContextOverflowError } from '../errors/context-overflow-error.js';
import { temporaryHomes } from '../context/test-support/test-stages.js';
import { recallOutput, recallRemoved } from '../recall/recall-tool.js';
import { IncrementalCompactor } from './incremental-compactor.js';
import { placeholderStage, readingConversation } from './test-support/placeholder-steps.js';

const home = temporaryHomes('ollm-incremental-');

let calls = 0;
/** Replaces every tool result but the last two by a placeholder naming its saved sha256. */
const placeholders = placeholderStage({ onCall: () => (calls += 1) });
const conversation = readingConversation;

describe('IncrementalCompactor', () => {
  it('returns messages that fit as they are, compacts once over the budget, then reuses the compaction for the next steps', async () => {
    calls = 0;
    const logdir = home();
    const compactor = new IncrementalCompactor({ stages: [placeholders], logdir });
    const window = { contextSize: 4096, replyReserve: 512 };
    const small = conversation(2);
    const fits = await compactor.fit(small, window);
    expect(fits.action).toBe('fits');
    expect(fits.messages).toBe(small);

    const results = [];
    for (let turns = 3; turns <= 40; turns += 1) results.push(await compactor.fit(conversation(turns), window));
    expect(results.every((result) => result.tokensAfter <= 4096 - 512)).toBe(true);
    const first = results.findIndex((result) => result.action === 'compacted');
    expect(first).toBeGreaterThanOrEqual(0);
    expect(results[first + 1]).toMatchObject({ action: 'reused', processedTokens: 0 });
    // Each compaction after the first works on the compacted prefix and the new span, not the history.
    const later = results.slice(first + 1).filter((result) => result.action === 'compacted');
    expect(later.length).toBeGreaterThan(0);
    for (const result of later) {
      expect(result.reusedMessages).toBeGreaterThan(0);
      expect(result.processedTokens).toBeLessThanOrEqual(4096 - 512 + result.newSpanTokens);
    }
    expect(calls).toBe(results.filter((result) => result.action === 'compacted').length);

    // What was removed comes back byte for byte through the recall tool's function.
    const reference = results.at(-1)!.references[0]!;
    const original = conversation(40)
      .flatMap((message) => message.parts)
      .find((part) => part.type === 'tool-result' && sha256Hex(part.output) === reference);
    const recalled = recallRemoved({ reference: reference.slice(0, 12) }, { logdir });
    expect(original && original.type === 'tool-result' ? recalled.text === original.output : false).toBe(true);
    expect(recallOutput(recalled)).toBe(recalled.text);
  });

  it('reuses a compaction only for the same sources: the same message objects from another source compact again', async () => {
    calls = 0;
    const compactor = new IncrementalCompactor({ stages: [placeholders] });
    const window = { contextSize: 4096, replyReserve: 512 };
    const history = conversation(30);
    const keys = history.map((message) => `source of ${message.id}`);
    expect((await compactor.fit(history, window, { sourceKeys: keys })).action).toBe('compacted');
    const next = [...history, { id: 'next', role: 'user' as const, parts: [{ type: 'text' as const, text: 'one more' }] }];
    expect((await compactor.fit(next, window, { sourceKeys: [...keys, 'next'] })).action).toBe('reused');
    // A provider option changed on the first message: its source differs, so nothing is reused.
    const changed = [`${keys[0]} (changed)`, ...keys.slice(1), 'next'];
    expect((await compactor.fit(next, window, { sourceKeys: changed })).action).toBe('compacted');
    expect(calls).toBe(2);
  });

  it('compacts one conversation once when the same call comes twice at the same time', async () => {
    calls = 0;
    const compactor = new IncrementalCompactor({ stages: [placeholders] });
    const messages = conversation(30);
    const [a, b] = await Promise.all([
      compactor.fit(messages, { contextSize: 4096, replyReserve: 512 }),
      compactor.fit(messages, { contextSize: 4096, replyReserve: 512 }),
    ]);
    expect(calls).toBe(1);
    expect(a.messages).toEqual(b.messages);
  });

  it('throws ContextOverflowError when what no stage may touch is over the budget', async () => {
    const compactor = new IncrementalCompactor({ stages: [placeholders] });
    const huge: Message[] = [{ id: 'm0', role: 'user', parts: [{ type: 'text', text: Array.from({ length: 3000 }, (_, index) => `w${index}`).join(' ') }] }];
    await expect(compactor.fit(huge, { contextSize: 2048, replyReserve: 256 })).rejects.toSatisfy((error) => ContextOverflowError.isInstance(error));
  });
});

describe('recallRemoved', () => {
  it('pages long content, and refuses bad, unknown and ambiguous references with messages for the model', () => {
    const logdir = home();
    const text = 'é'.repeat(25_000);
    const saved = saveRemovedContent(logdir, text);
    const first = recallRemoved({ reference: saved.sha256.slice(0, 10) }, { logdir });
    expect(first.text).toBe(text.slice(0, 16_000));
    expect(first.nextOffset).toBe(16_000);
    expect(recallOutput(first).endsWith('[ollm recall: characters 0-16000 of 25000; call recall with offset 16000 for more]')).toBe(true);
    const second = recallRemoved({ reference: `removed/${saved.sha256}.txt`, offset: 16_000 }, { logdir });
    expect(first.text + second.text).toBe(text);
    expect(second.nextOffset).toBeUndefined();
    expect(() => recallRemoved({ reference: 'xyz' }, { logdir })).toThrow(/not a reference/);
    expect(() => recallRemoved({ reference: '0000000000' }, { logdir })).toThrow(/Nothing removed from this conversation has the reference 0000000000/);
    expect(() => recallRemoved({ reference: saved.sha256, offset: -1 }, { logdir })).toThrow(/offset must be a whole number/);
    // Bounded in tokens: pages within 500 tokens that join back to the exact text.
    const tokens = new TokenCounter(createTokenizer('o200k_base'));
    const pages: string[] = [];
    for (let offset: number | undefined = 0; offset !== undefined;) {
      const page = recallRemoved({ reference: saved.sha256, offset }, { logdir, maxTokens: 500, tokens });
      expect(tokens.countText(page.text)).toBeLessThanOrEqual(500);
      pages.push(page.text);
      offset = page.nextOffset;
    }
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.join('')).toBe(text);
  });
});
