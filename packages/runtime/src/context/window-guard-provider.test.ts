import { compactWith, createTokenizer, findMessageShapeRegressions, type Message, TokenCounter, turnOf } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createWindowGuardProvider } from './window-guard-provider.js';

const text = (id: string, role: Message['role'], body: string): Message => ({ id, role, parts: [{ type: 'text', text: body }] });
const long = 'lorem ipsum dolor '.repeat(60);
const defaultTokens = new TokenCounter(createTokenizer('o200k_base'));

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

describe('window guard and the strict message shape (property)', () => {
  /** One step of a random conversation, in any order a transcript or an app may produce. */
  const step = fc.oneof(
    fc.record({ kind: fc.constant('user' as const), size: fc.integer({ min: 1, max: 80 }), pinned: fc.boolean() }),
    fc.record({ kind: fc.constant('reply' as const), size: fc.integer({ min: 1, max: 80 }), pinned: fc.boolean() }),
    fc.record({
      kind: fc.constant('tools' as const),
      calls: fc.integer({ min: 1, max: 3 }),
      size: fc.integer({ min: 1, max: 150 }),
      // Where the results are: tool messages, one user message of results (Anthropic), none yet.
      layout: fc.constantFrom('tool', 'tool', 'user', 'unanswered'),
    }),
    fc.record({ kind: fc.constant('checkpoint' as const), size: fc.integer({ min: 1, max: 60 }) }),
    fc.record({ kind: fc.constant('system' as const) }),
    // gptme's layout: a tool message of text, answering no call.
    fc.record({ kind: fc.constant('tool-text' as const), size: fc.integer({ min: 1, max: 60 }) }),
  );
  type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

  function conversation(leadingSystem: boolean, steps: readonly Step[]): Message[] {
    const messages: Message[] = leadingSystem ? [text('s', 'system', 'rules')] : [];
    steps.forEach((entry, index) => {
      const id = `m${index}`;
      switch (entry.kind) {
        case 'user':
          messages.push({ ...text(id, 'user', 'ask '.repeat(entry.size)), ...(entry.pinned ? { pinned: true } : {}) });
          break;
        case 'reply':
          messages.push({ ...text(id, 'assistant', 'said '.repeat(entry.size)), ...(entry.pinned ? { pinned: true } : {}) });
          break;
        case 'tools': {
          const callIds = Array.from({ length: entry.calls }, (_, call) => `${id}-c${call}`);
          messages.push({ id, role: 'assistant', parts: callIds.map((callId) => ({ type: 'tool-call' as const, callId, name: 'bash', input: {} })) });
          const results = callIds.map((callId) => ({ type: 'tool-result' as const, callId, output: 'out '.repeat(entry.size) }));
          if (entry.layout === 'tool') results.forEach((part, call) => messages.push({ id: `${id}-t${call}`, role: 'tool', parts: [part] }));
          if (entry.layout === 'user') messages.push({ id: `${id}-r`, role: 'user', parts: results });
          break;
        }
        case 'checkpoint':
          messages.push({
            ...text(id, 'assistant', `[ollm checkpoint] ${'fact '.repeat(entry.size)}`),
            metadata: {
              checkpoint: {
                id,
                level: 0,
                range: 'Messages 1-2',
                summary: 'facts',
                createdAt: '2026-01-01T00:00:00Z',
                originalTokens: 100,
                currentTokens: entry.size,
                compressionCount: 1,
              },
            },
          });
          break;
        case 'system':
          messages.push(text(id, 'system', 'more rules'));
          break;
        case 'tool-text':
          messages.push(text(id, 'tool', 'ran '.repeat(entry.size)));
          break;
      }
    });
    return messages;
  }

  it('never breaks a strict rule more often than its input, whatever the limit, and keeps its other guarantees', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.array(step, { minLength: 1, maxLength: 24 }),
        fc.double({ min: 0, max: 1.1, noNaN: true }),
        fc.boolean(),
        async (leadingSystem, steps, share, tellPending) => {
          const messages = conversation(leadingSystem, steps);
          const limit = Math.floor(share * tokenCount(messages));
          const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
          const pending = new Set(messages.filter((message, index) => index > lastAssistant && message.role === 'user').map((message) => message.id));
          const guard = createWindowGuardProvider(tellPending ? { pendingMessageIds: pending } : {});
          // The host rejects an output that breaks a strict rule more often than its input (rule message-shape).
          const result = await compactWith(guard, messages, { config: { limit }, shape: 'strict' });
          expect(findMessageShapeRegressions(messages, result.messages, 'strict')).toEqual([]);
          const kept = new Set(result.messages.map((message) => message.id));
          for (const message of messages) {
            if (message.pinned || message.role === 'system' || pending.has(message.id)) expect(kept.has(message.id)).toBe(true);
          }
          const latestUser = messages.findLast((message) => message.role === 'user');
          if (latestUser) expect(kept.has(latestUser.id)).toBe(true);
          // The conversation goes on: a user message added after a reply (the last user message answered) touches no other.
          const lastUserTurn = messages.findLastIndex((message) => turnOf(message) === 'user');
          if (lastUserTurn !== -1 && !pending.has(messages[lastUserTurn]!.id)) {
            const next = text('next', 'user', 'and now?');
            expect(findMessageShapeRegressions([...messages, next], [...result.messages, next], 'strict')).toEqual([]);
          }
          // Whatever the guard inserted is a one-line assistant note.
          const inserted = result.messages.filter((message) => !messages.some((original) => original.id === message.id));
          for (const note of inserted) {
            expect(note.role).toBe('assistant');
            expect(note.parts).toEqual([{ type: 'text', text: expect.stringMatching(/^\[ollm window-guard\] \d+ messages? dropped/) }]);
          }
          // The note is counted: the output is never larger than the input, and reaches the limit whenever the old guard could.
          expect(result.stats.tokensAfter).toBeLessThanOrEqual(result.stats.tokensBefore);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps the first user message (the task) until nothing else is left', async () => {
    const messages: Message[] = [
      text('s', 'system', 'rules'),
      text('u1', 'user', `task ${long}`),
      text('a1', 'assistant', long),
      text('u2', 'user', long),
      text('a2', 'assistant', long),
      text('u3', 'user', 'latest'),
    ];
    const result = await compactWith(createWindowGuardProvider(), messages, { config: { limit: 300 }, shape: 'strict' });
    expect(result.messages.map((message) => message.id)).toEqual(['s', 'u1', expect.stringMatching(/^window-guard-note/), 'u3']);
    expect(result.folded?.map((entry) => entry.messageId)).toEqual(['u2']);
    expect(result.messages[2]!.parts).toEqual([{ type: 'text', text: '[ollm window-guard] 2 messages dropped to fit the window' }]);
    // Only when the task alone is over the limit does it go, with the note that stood for its reply.
    const last = await compactWith(createWindowGuardProvider(), messages, { config: { limit: 100 }, shape: 'strict' });
    expect(last.messages.map((message) => message.id)).toEqual(['s', 'u3']);
    expect(last.folded?.map((entry) => entry.messageId)).toEqual(['u1', 'u2']);
  });

  it('does not fold the task when an assistant message would then come first, unless the target accepts that (openai)', async () => {
    const messages: Message[] = [
      text('u1', 'user', `task ${long}`),
      { ...text('a1', 'assistant', 'pinned answer'), pinned: true },
      text('u2', 'user', 'latest'),
    ];
    const strict = await compactWith(createWindowGuardProvider(), messages, { config: { limit: 40 }, shape: 'strict' });
    expect(strict.messages.map((message) => message.id)).toEqual(['u1', 'a1', 'u2']);
    const openai = await compactWith(createWindowGuardProvider({ shape: 'openai' }), messages, { config: { limit: 40 } });
    expect(openai.messages.map((message) => message.id)).toEqual(['a1', 'u2']);
  });
});

function tokenCount(messages: readonly Message[]): number {
  return defaultTokens.countMessages(messages);
}
