import { checkMessageShape } from '@ollm/core';
import { chatRequests, type FakeModelServer } from '@ollm/fake-model-server';
import { generateText, stepCountIs, streamText, wrapLanguageModel } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { contextMiddleware, type CompactionEvent } from './index.js';
import { readFileTool, SMALL_MODEL, startFakeProvider, temporaryFolder } from './test-support/agent-fixture.js';

let fake: FakeModelServer | undefined;
let folder: ReturnType<typeof temporaryFolder> | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  folder?.remove();
  folder = undefined;
});

/** What every chat the server received must show: inside the window (none refused) and a valid tool pairing. */
function expectEveryRequestValid(server: FakeModelServer): void {
  const chats = chatRequests(server);
  for (const request of chats) {
    expect(request.promptTokens + (request.maxTokens ?? 0)).toBeLessThanOrEqual(SMALL_MODEL.contextLength);
    expect(checkMessageShape(request.messages, 'openai')).toEqual([]);
    expect(request.responseBody).toBeDefined();
  }
}

/** A middleware that records every call's compaction event (none: it fitted) and its added time, measured around `transformParams`. */
function recorded(options: Omit<Parameters<typeof contextMiddleware>[0], 'onCompaction'>) {
  const milliseconds: number[] = [];
  const events: CompactionEvent[] = [];
  const actions: string[] = [];
  const seen: { event?: CompactionEvent | undefined } = {};
  const inner = contextMiddleware({ ...options, onCompaction: (event) => void (seen.event = event) });
  const transformParams: NonNullable<typeof inner.transformParams> = async (call) => {
    seen.event = undefined;
    const started = performance.now();
    const result = await inner.transformParams!(call);
    milliseconds.push(performance.now() - started);
    const event = seen.event as CompactionEvent | undefined;
    if (event) events.push(event);
    actions.push(event?.action ?? 'fits');
    return result;
  };
  return { middleware: { ...inner, transformParams }, milliseconds, events, actions };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

describe('contextMiddleware in an agent loop against a 4,096-token window', () => {
  it('runs 100 tool steps with generateText: every call inside the window, each step reusing the compaction before it', async () => {
    const { read_file, outputs } = readFileTool();
    const started = await startFakeProvider({
      toolCalls: () => (outputs.size < 100 ? [{ name: 'read_file', arguments: { path: `src/module-${outputs.size}.ts` } }] : undefined),
      reply: () => (outputs.size < 100 ? undefined : 'Read all 100 modules.'),
    });
    fake = started.fake;
    folder = temporaryFolder();
    const { middleware, milliseconds, events, actions } = recorded({ contextSize: SMALL_MODEL.contextLength, logdir: folder.path });

    const result = await generateText({
      model: wrapLanguageModel({ model: started.model, middleware }),
      system: 'You are a coding agent. Read the files you need, then answer.',
      prompt: 'Read src/module-0.ts to src/module-99.ts and tell me what they define.',
      tools: { read_file },
      maxOutputTokens: 300,
      stopWhen: stepCountIs(101),
    });

    expect(result.steps).toHaveLength(101);
    expect(result.text).toBe('Read all 100 modules.');
    expect(outputs.size).toBe(100);
    const chats = chatRequests(fake);
    expect(chats).toHaveLength(101);
    expectEveryRequestValid(fake);
    // The history grew far past the window; the calls stayed inside it.
    const history = events.at(-1)!.tokensBefore;
    expect(history).toBeGreaterThan(8 * SMALL_MODEL.contextLength);
    expect(Math.max(...chats.map((request) => request.promptTokens))).toBeLessThanOrEqual(SMALL_MODEL.contextLength - 300);
    // Each step compacts only its new span: most steps reuse the compaction before them, and none re-reads the history.
    const compacted = events.filter((event) => event.action === 'compacted');
    const reused = events.filter((event) => event.action === 'reused');
    expect(compacted.length).toBeGreaterThan(1);
    expect(reused.length).toBeGreaterThan(compacted.length);
    for (const event of reused) expect(event.processedTokens).toBe(0);
    // What a compaction reads is the compaction it reuses (under the budget) and the new span, never the history.
    for (const event of compacted.slice(1)) expect(event.processedTokens).toBeLessThanOrEqual(event.budget + event.newSpanTokens);
    expect(compacted.at(-1)!.processedTokens).toBeLessThan(compacted.at(-1)!.tokensBefore / 10);
    const afterFirst = events.indexOf(compacted[0]!) + 1;
    expect(events[afterFirst]).toMatchObject({ action: 'reused', processedTokens: 0 });
    // The system message and the task are in every request, word for word.
    for (const request of chats) {
      expect(request.messages[0]).toMatchObject({
        role: 'system',
        parts: [{ type: 'text', text: 'You are a coding agent. Read the files you need, then answer.' }],
      });
      expect(request.messages[1]).toMatchObject({
        role: 'user',
        parts: [{ type: 'text', text: 'Read src/module-0.ts to src/module-99.ts and tell me what they define.' }],
      });
    }
    // A step that reuses a compaction sends the compacted messages the step before sent, byte for byte (provider prompt caches hit).
    const wire = (index: number) => (chats[index]!.body as { messages: unknown[] }).messages;
    let stable = 0;
    for (let index = 0; index + 1 < actions.length; index += 1) {
      if (actions[index] !== 'compacted' || actions[index + 1] !== 'reused') continue;
      expect(JSON.stringify(wire(index + 1).slice(0, wire(index).length))).toBe(JSON.stringify(wire(index)));
      stable += 1;
    }
    expect(stable).toBeGreaterThan(10);
    const perAction = (action: string) => median(milliseconds.filter((_, index) => actions[index] === action)).toFixed(2);
    console.log(`median ms per step: fits ${perAction('fits')}, reused ${perAction('reused')}, compacted ${perAction('compacted')}`);
    console.log(
      `generateText, 101 steps: middleware median ${median(milliseconds).toFixed(2)} ms per step, max ${Math.max(...milliseconds).toFixed(1)} ms; ` +
        `${compacted.length} compacted, ${reused.length} reused; history ${history} tokens, largest request ${Math.max(...chats.map((request) => request.promptTokens))}`,
    );
  });

  it('runs 15 steps of two parallel tool calls with streamText the same way', async () => {
    const { read_file, outputs } = readFileTool();
    const started = await startFakeProvider({
      toolCalls: () =>
        outputs.size < 30
          ? [
              { name: 'read_file', arguments: { path: `src/module-${outputs.size}.ts` } },
              { name: 'read_file', arguments: { path: `src/module-${outputs.size + 1}.ts` } },
            ]
          : undefined,
      reply: () => (outputs.size < 30 ? undefined : 'Read all 30 modules.'),
    });
    fake = started.fake;
    folder = temporaryFolder();
    const { middleware, milliseconds, events, actions } = recorded({ contextSize: SMALL_MODEL.contextLength, logdir: folder.path });

    const result = streamText({
      model: wrapLanguageModel({ model: started.model, middleware }),
      system: 'You are a coding agent.',
      prompt: 'Read src/module-0.ts to src/module-29.ts.',
      tools: { read_file },
      stopWhen: stepCountIs(20),
    });
    let streamed = '';
    for await (const delta of result.textStream) streamed += delta;

    expect(streamed).toBe('Read all 30 modules.');
    expect(await result.steps).toHaveLength(16);
    expect(outputs.size).toBe(30);
    const chats = chatRequests(fake);
    expect(chats).toHaveLength(16);
    // Each step's two results went out as two tool messages after their assistant message.
    expect(chats.at(-1)!.messages.filter((message) => message.role === 'tool').length).toBeGreaterThanOrEqual(2);
    expect(chats.every((request) => request.stream)).toBe(true);
    expectEveryRequestValid(fake);
    expect(events.every((event) => event.type === 'stream')).toBe(true);
    expect(actions).toHaveLength(16);
    expect(events.some((event) => event.action === 'compacted')).toBe(true);
    // Each step adds two outputs (~1.1K tokens), more than the 30% a compaction to 70% of the budget leaves
    // free: a step reuses the compaction before it or compacts it and its new span only, never the history.
    for (const event of events.filter((event) => event.action === 'compacted').slice(1)) {
      expect(event.reusedMessages).toBeGreaterThan(0);
      expect(event.processedTokens).toBeLessThanOrEqual(event.budget + event.newSpanTokens);
    }
    console.log(`streamText, 16 steps: middleware median ${median(milliseconds).toFixed(2)} ms per step`);
  });
});
