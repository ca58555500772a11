import { compactWith, type Message } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createWindowGuardProvider } from './window-guard-provider.js';

const text = (id: string, role: Message['role'], body: string): Message => ({ id, role, parts: [{ type: 'text', text: body }] });
const long = 'lorem ipsum dolor '.repeat(60);

describe('window guard', () => {
  it('drops whole turns oldest first, never a system, user or pinned message, and keeps pairing', async () => {
    const messages: Message[] = [
      text('s', 'system', 'rules'),
      text('u1', 'user', 'first task'),
      {
        id: 'a1',
        role: 'assistant',
        parts: [
          { type: 'tool-call', callId: 'c1', name: 'bash', input: {} },
          { type: 'tool-call', callId: 'c2', name: 'bash', input: {} },
        ],
      },
      { id: 't1', role: 'tool', parts: [{ type: 'tool-result', callId: 'c1', output: long }] },
      { id: 't2', role: 'tool', parts: [{ type: 'tool-result', callId: 'c2', output: long }] },
      { id: 'a2', role: 'assistant', parts: [{ type: 'tool-call', callId: 'c3', name: 'bash', input: {} }] },
      // A result carried by a user message (Anthropic layout): its call must stay with it.
      { id: 'u2', role: 'user', parts: [{ type: 'tool-result', callId: 'c3', output: long }] },
      { ...text('a3', 'assistant', long), pinned: true },
      text('a4', 'assistant', long),
      text('u3', 'user', 'latest'),
    ];
    const result = await compactWith(createWindowGuardProvider(), messages, { config: { limit: 700 } });
    const kept = result.messages.map((message) => message.id);
    expect(kept).not.toContain('a1');
    expect(kept).not.toContain('t1');
    expect(kept).not.toContain('t2');
    expect(kept).toEqual(expect.arrayContaining(['s', 'a2', 'u2', 'a3', 'u3']));
    expect(result.removed[0]).toMatchObject({ messageId: 'a1', kind: 'turn' });
  });
});

describe('window guard and checkpoints', () => {
  it('never drops a checkpoint, even the oldest assistant message: only its provider ages it', async () => {
    const checkpoint: Message = {
      ...text('cp', 'assistant', `[ollm checkpoint] ${long}`),
      metadata: {
        checkpoint: {
          id: 'c',
          level: 3,
          range: 'Messages 2-9',
          summary: long,
          createdAt: '2026-01-01T00:00:00Z',
          originalTokens: 900,
          currentTokens: 300,
          compressionCount: 1,
        },
      },
    };
    const messages: Message[] = [
      text('u1', 'user', 'task'),
      checkpoint,
      text('a1', 'assistant', long),
      text('u2', 'user', 'next'),
      text('a2', 'assistant', long),
      text('u3', 'user', 'latest'),
    ];
    const result = await compactWith(createWindowGuardProvider(), messages, { config: { limit: 500 } });
    const kept = result.messages.map((message) => message.id);
    expect(kept).toContain('cp');
    expect(kept).not.toContain('a1');
  });
});

describe('window guard (property)', () => {
  const turn = fc.record({
    user: fc.integer({ min: 1, max: 120 }),
    tool: fc.option(fc.integer({ min: 1, max: 300 }), { nil: undefined }),
    reply: fc.boolean(),
  });
  it('never folds the latest user message or one the model has not answered, and keeps pairing valid', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(turn, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 1, max: 2_000 }),
        async (turns, pendingCount, limit) => {
          const messages: Message[] = [text('s', 'system', 'rules')];
          turns.forEach((entry, index) => {
            messages.push(text(`u${index}`, 'user', 'ask '.repeat(entry.user)));
            if (entry.tool !== undefined) {
              messages.push({ id: `a${index}`, role: 'assistant', parts: [{ type: 'tool-call', callId: `c${index}`, name: 'bash', input: {} }] });
              messages.push({ id: `t${index}`, role: 'tool', parts: [{ type: 'tool-result', callId: `c${index}`, output: 'out '.repeat(entry.tool) }] });
            }
            if (entry.reply || index < turns.length - 1) messages.push(text(`r${index}`, 'assistant', 'done'));
          });
          const pending = Array.from({ length: pendingCount }, (_, index) => text(`p${index}`, 'user', 'waiting '.repeat(20)));
          messages.push(...pending);
          // compactWith validates the output: pairing, order, roles, untouched user text.
          const result = await compactWith(createWindowGuardProvider(), messages, { config: { limit } });
          const kept = new Set(result.messages.map((message) => message.id));
          const latestUser = messages.findLast((message) => message.role === 'user')!;
          expect(kept.has(latestUser.id)).toBe(true);
          for (const message of pending) expect(kept.has(message.id)).toBe(true);
          expect(kept.has('s')).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
