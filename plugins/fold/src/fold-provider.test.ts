import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TokenCounter, compactWith, createTokenizer, renderMessage, type Message } from '@ollm/core';
import { createFoldProvider } from './index.js';
import { agentConversation, fileView } from './test-support/agent-conversation.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));
const logdirs: string[] = [];
afterEach(() => {
  for (const dir of logdirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function steps(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    thought: `Step ${index}: I will look at module_${index} to find where the lookup happens.`,
    command: `cat /testbed/app/module_${index}.py`,
    output: fileView(`/testbed/app/module_${index}.py`, 40),
    reasoning: `Thinking about module_${index} at length. `.repeat(10),
  }));
}

async function fold(messages: readonly Message[], limit: number | undefined, logdir?: string) {
  return compactWith(createFoldProvider(), messages, {
    config: { ...(limit !== undefined ? { limit } : {}), ...(logdir ? { logdir } : {}) },
    context: { tokens },
  });
}

const text = (messages: readonly Message[]) => messages.map(renderMessage).join('\n');

describe('fold', () => {
  it('gives things up in order: at a generous limit only old reasoning goes', async () => {
    const messages = agentConversation('Fix the lookup in app/module_3.py', steps(12));
    const total = tokens.countMessages(messages);
    const reasoning = messages.flatMap((message) => message.parts.filter((part) => part.type === 'reasoning')).length;
    const result = await fold(messages, total - 200);
    expect(result.stats.tokensAfter).toBeLessThanOrEqual(total - 200);
    const reasoningLeft = result.messages.flatMap((message) => message.parts.filter((part) => part.type === 'reasoning')).length;
    expect(reasoningLeft).toBeLessThan(reasoning);
    // No tool output was folded yet.
    expect(text(result.messages)).not.toMatch(/\[ollm fold [0-9a-f]{12}\] \d+ lines/);
  });

  it('reaches 50%, 25% and 10% of a long run, keeps every user message and the newest turn readable', async () => {
    const messages = agentConversation('Fix the lookup in app/module_3.py', steps(30));
    const total = tokens.countMessages(messages);
    for (const share of [0.5, 0.25, 0.1]) {
      const limit = Math.floor(total * share);
      const result = await fold(messages, limit);
      expect(result.stats.tokensAfter, `at ${share}`).toBeLessThanOrEqual(limit);
      expect(result.messages.filter((message) => message.role === 'user' || message.role === 'system')).toEqual(
        messages.filter((message) => message.role === 'user' || message.role === 'system'),
      );
      expect(result.messages.at(-1)!.id).toBe('tool_29');
    }
  });

  it('placeholders are short 12-hex references, and every folded piece is saved whole for recovery', async () => {
    const logdir = mkdtempSync(join(tmpdir(), 'ollm-fold-'));
    logdirs.push(logdir);
    const messages = agentConversation('Fix the lookup', steps(20));
    const result = await fold(messages, Math.floor(tokens.countMessages(messages) * 0.2), logdir);
    const references = [...text(result.messages).matchAll(/\[ollm fold ([0-9a-f]+)\]/g)].map((match) => match[1]!);
    expect(references.length).toBeGreaterThan(0);
    for (const reference of references) expect(reference).toHaveLength(12);
    expect(text(result.messages)).not.toContain(logdir);
    for (const removed of result.removed) {
      expect(removed.path).toBeDefined();
      expect(readFileSync(removed.path!, 'utf8').length).toBeGreaterThan(0);
    }
    // Every tool output no longer in view is in the store, byte for byte: alone, or inside the
    // saved messages of a folded turn (JSON, every field).
    const everything = result.removed
      .map((removed) => readFileSync(removed.path!, 'utf8'))
      .flatMap((content) => {
        if (!content.startsWith('[')) return [content];
        const saved = JSON.parse(content) as Message[];
        return saved.flatMap((message) => message.parts.map((part) => (part.type === 'tool-result' ? part.output : JSON.stringify(part))));
      })
      .join('\n');
    const kept = text(result.messages);
    let checked = 0;
    for (const message of messages) {
      for (const part of message.parts) {
        if (part.type !== 'tool-result' || kept.includes(part.output)) continue;
        expect(everything).toContain(part.output);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('a dropped run keeps the names it held that nothing kept shows', async () => {
    const messages = agentConversation('Fix the lookup', steps(24));
    const result = await fold(messages, Math.floor(tokens.countMessages(messages) * 0.15));
    const output = text(result.messages);
    expect(output).toMatch(/earlier steps folded \(cat ×\d+\); names seen: /);
    // The oldest module's path survives in the digest although its turn is gone.
    expect(result.messages.some((message) => message.id === 'tool_0')).toBe(false);
    expect(output).toContain('/testbed/app/module_0.py');
  });

  it('folds first the outputs whose names the agent never mentions again', async () => {
    const task = 'Fix the lookup';
    const run = steps(8).map((step, index) =>
      // Step 1's output is cited again by every later thought; step 2's never.
      index > 2 ? { ...step, thought: `${step.thought} Back to render_view_7 of module_1.` } : step,
    );
    const messages = agentConversation(task, run);
    const total = tokens.countMessages(messages);
    const result = await fold(messages, total - 500);
    const outputOf = (id: string) => result.messages.find((message) => message.id === id)!.parts.find((part) => part.type === 'tool-result');
    const first = outputOf('tool_1');
    const second = outputOf('tool_2');
    expect(first?.type === 'tool-result' && first.output.startsWith('[ollm fold')).toBe(false);
    expect(second?.type === 'tool-result' && second.output.startsWith('[ollm fold')).toBe(true);
  });

  it('without a limit folds old reasoning and old tool outputs only, never drops a turn', async () => {
    const messages = agentConversation('Fix the lookup', steps(10));
    const result = await fold(messages, undefined);
    expect(result.messages.map((message) => message.id)).toEqual(messages.map((message) => message.id));
    expect(result.stats.tokensAfter).toBeLessThan(tokens.countMessages(messages));
  });

  it('when the system and user messages alone are over the limit, compacts the rest by the ratio asked and warns', async () => {
    const messages = agentConversation(`Fix the lookup. ${'The task statement goes on at length. '.repeat(200)}`, steps(12));
    const total = tokens.countMessages(messages);
    const fixed = tokens.countMessages(messages.slice(0, 2));
    const limit = fixed - 10;
    const result = await fold(messages, limit);
    const editable = total - fixed;
    expect(result.stats.tokensAfter).toBeLessThanOrEqual(fixed + Math.floor((limit / total) * editable));
    // Not everything went: the newest turn is still there.
    expect(result.messages.at(-1)!.id).toBe('tool_11');
    expect(result.limitations.join('\n')).toMatch(/over the limit/);
  });

  it('a dropped turn is saved whole: its call arguments (numbers, booleans) come back with ollm recover', async () => {
    const logdir = mkdtempSync(join(tmpdir(), 'ollm-fold-'));
    logdirs.push(logdir);
    const messages = agentConversation('Book the flight', steps(16));
    const booking: Message = {
      id: 'assistant_booking',
      role: 'assistant',
      timestamp: '2025-01-01T00:00:10Z',
      parts: [
        {
          type: 'tool-call',
          callId: 'call_booking',
          name: 'book_reservation',
          input: { amount: 1234.5, insurance: true },
          rawInput: '{"amount":1234.5,"insurance":true}',
        },
      ],
    };
    const result: Message = {
      id: 'tool_booking',
      role: 'tool',
      timestamp: '2025-01-01T00:00:11Z',
      parts: [{ type: 'tool-result', callId: 'call_booking', output: 'booked' }],
    };
    const conversation = [...messages.slice(0, 2), booking, result, ...messages.slice(2)];
    const folded = await fold(conversation, Math.floor(tokens.countMessages(conversation) * 0.1), logdir);
    expect(folded.messages.some((message) => message.id === 'tool_booking')).toBe(false);
    const saved = folded.removed.map((removed) => readFileSync(removed.path!, 'utf8')).filter((content) => content.includes('call_booking'));
    expect(saved.length).toBeGreaterThan(0);
    const messagesBack = JSON.parse(saved[0]!) as Message[];
    expect(messagesBack.find((message) => message.id === 'assistant_booking')).toEqual(booking);
  });

  it('a one-line turn does not bring back the reasoning level 1 removed', async () => {
    const chat: Message[] = [
      { id: 'system', role: 'system', parts: [{ type: 'text', text: 'You are helpful.' }] },
      { id: 'user', role: 'user', parts: [{ type: 'text', text: 'Plan the migration.' }] },
      ...Array.from({ length: 12 }, (_, index): Message => ({
        id: `answer_${index}`,
        role: 'assistant',
        parts: [
          {
            type: 'text',
            text: `<think>Secret plan number ${index}. ${'Weighing options. '.repeat(40)}</think>Step ${index}: move table_${index} first. ${'Then check the indexes. '.repeat(20)}`,
          },
        ],
      })),
    ];
    const result = await fold(chat, Math.floor(tokens.countMessages(chat) * 0.3));
    // Old answers are one line each, without their reasoning; the newest turns keep theirs.
    const old = result.messages.filter((message) => /^answer_[0-8]$/.test(message.id));
    expect(old.length).toBe(9);
    expect(text(old)).not.toContain('Secret plan');
    expect(text(old)).toContain('Step 0: move table_0 first.');
  });

  it('rejects an unknown or malformed option with the option named', () => {
    expect(() => createFoldProvider({ keepRecentTurns: -1 })).toThrow(/keepRecentTurns must be a non-negative integer/);
    expect(() => createFoldProvider({ keepRecent: 2 } as never)).toThrow(/no option "keepRecent"/);
  });
});
