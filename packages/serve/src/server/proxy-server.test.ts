import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTEXT_HEADER } from './context-report.js';
import { SMALL_MODEL, startProxyHarness, type ProxyHarness } from '../test-support/proxy-harness.js';
import { contextFields, fileText, pairingProblems, question, openAICalls, openAIResult } from '../test-support/agent-conversation.js';

const REPLY_LIMIT = 200;

let harness: ProxyHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('ollm serve with the openai client', () => {
  it('keeps a 200-turn tool-using conversation inside a 4,096 window, compacting only the new span after the first compaction', async () => {
    harness = await startProxyHarness();
    const client = new OpenAI({ baseURL: `${harness.proxy.url}/v1`, apiKey: 'sk-serve-test-key', maxRetries: 0 });
    const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: 'You are a careful coding agent. Read files before changing them.' }];
    const headers: Record<string, string>[] = [];
    const sentCounts: number[] = [];
    for (let turn = 0; turn < 200; turn += 1) {
      messages.push({ role: 'user', content: question(turn) });
      if (turn % 2 === 0) {
        const id = `call_${turn}`;
        messages.push({
          role: 'assistant',
          content: null,
          tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path: `src/module-${turn % 17}.ts` }) } }],
        });
        messages.push({ role: 'tool', tool_call_id: id, content: fileText(turn) });
      }
      sentCounts.push(messages.length);
      const { data, response } = await client.chat.completions.create({ model: SMALL_MODEL.name, messages, max_tokens: REPLY_LIMIT }).withResponse();
      headers.push(contextFields(response.headers.get(CONTEXT_HEADER)));
      messages.push({ role: 'assistant', content: data.choices[0]?.message.content ?? '' });
    }

    const chats = harness.fake.requests.filter((request) => request.path === '/v1/chat/completions');
    expect(chats).toHaveLength(200);
    // The fake server refuses anything over the window; every request was answered, and fits.
    expect(chats.every((request) => request.fault === undefined && request.promptTokens + REPLY_LIMIT <= SMALL_MODEL.contextLength!)).toBe(true);
    for (const request of chats) {
      const sent = (request.body as { messages: Record<string, unknown>[] }).messages;
      expect(pairingProblems(sent, openAICalls, openAIResult)).toEqual([]);
    }
    // The latest question is always sent word for word.
    chats.forEach((request, turn) => {
      const sent = (request.body as { messages: { role: string; content: unknown }[] }).messages;
      expect(sent.filter((message) => message.role === 'user').at(-1)?.content).toBe(question(turn));
    });

    const reports = harness.reports;
    expect(headers.map((fields) => fields['action'])).toEqual(reports.map((report) => report.action));
    const first = reports.findIndex((report) => report.action === 'compacted');
    expect(first).toBeGreaterThan(0);
    // The request after a compaction reuses it: nothing goes through the pipeline, only the new span is counted.
    const next = reports[first + 1]!;
    expect(next.action).toBe('reused');
    expect(next.processedTokens).toBe(0);
    expect(next.newSpanTokens).toBeLessThan(1000);
    expect(next.reusedMessages).toBe(sentCounts[first]);
    // Later compactions work on the compacted prefix and the new span, never on the whole history.
    const later = reports.slice(first + 1).filter((report) => report.action === 'compacted');
    expect(later.length).toBeGreaterThan(3);
    for (const report of later) {
      expect(report.reusedMessages).toBeGreaterThan(0);
      expect(report.processedTokens).toBeLessThanOrEqual(report.budget + report.newSpanTokens);
    }
    expect(later.at(-1)!.processedTokens).toBeLessThan(later.at(-1)!.tokensBefore / 10);
    expect(reports.at(-1)!.tokensBefore).toBeGreaterThan(40_000);
    if (process.env['OLLM_DUMP']) console.log(harness.logs.join('\n'));
  });
});
