import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTEXT_HEADER } from './context-report.js';
import { SMALL_MODEL, startProxyHarness, type ProxyHarness } from '../test-support/proxy-harness.js';
import { contextFields, fileText, pairingProblems, openAICalls, openAIResult } from '../test-support/agent-conversation.js';

const REPLY_LIMIT = 200;

let harness: ProxyHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** Messages two requests share from the start, byte for byte as JSON. */
function sharedStart(first: readonly unknown[], second: readonly unknown[]): number {
  let count = 0;
  while (count < first.length && count < second.length && JSON.stringify(first[count]) === JSON.stringify(second[count])) count += 1;
  return count;
}

describe('ollm serve and a local server prompt cache', () => {
  it('keeps what an earlier compaction wrote as it was sent, the newest call and result as they came, inside the window', async () => {
    harness = await startProxyHarness();
    const client = new OpenAI({ baseURL: `${harness.proxy.url}/v1`, apiKey: 'sk-serve-test-key', maxRetries: 0 });
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: 'You are a careful coding agent. Read files before changing them.' },
      { role: 'user', content: 'Read every module with read_file, then say which handler returns the most for 2. Quote the codename TEAL-FINCH-42.' },
    ];
    const fields: Record<string, string>[] = [];
    for (let step = 0; step < 60; step += 1) {
      const id = `call_${step}`;
      messages.push(
        {
          role: 'assistant',
          content: `Reading module ${step}.`,
          tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path: `src/module-${step}.ts` }) } }],
        },
        { role: 'tool', tool_call_id: id, content: fileText(step) },
      );
      const { response } = await client.chat.completions.create({ model: SMALL_MODEL.name, messages, max_tokens: REPLY_LIMIT }).withResponse();
      fields.push(contextFields(response.headers.get(CONTEXT_HEADER)));
    }

    const sent = harness.fake.requests
      .filter((request) => request.path === '/v1/chat/completions')
      .map((request) => (request.body as { messages: Record<string, unknown>[] }).messages);
    expect(sent).toHaveLength(60);
    const chats = harness.fake.requests.filter((request) => request.path === '/v1/chat/completions');
    expect(chats.every((request) => request.fault === undefined && request.promptTokens + REPLY_LIMIT <= SMALL_MODEL.contextLength!)).toBe(true);
    sent.forEach((request, step) => {
      expect(pairingProblems(request, openAICalls, openAIResult)).toEqual([]);
      // The task and the newest call and result go as they came, whatever was compacted.
      expect(request[1]).toEqual(messages[1]);
      expect(request.slice(-2)).toEqual(messages.slice(2 + 2 * step, 4 + 2 * step));
    });

    const compactions = harness.reports.map((report, step) => ({ report, step })).filter(({ report }) => report.action === 'compacted');
    expect(compactions.length).toBeGreaterThan(3);
    const keeping = compactions.filter(({ report }) => report.keptMessages > 0);
    expect(keeping.length).toBeGreaterThan(0);
    for (const { report, step } of keeping) {
      // What it says it kept is what the request before it sent, byte for byte, past the system prompt and the task.
      expect(report.keptMessages).toBeGreaterThan(2);
      expect(sharedStart(sent[step - 1]!, sent[step]!)).toBeGreaterThanOrEqual(report.keptMessages);
      expect(fields[step]!['kept']).toBe(String(report.keptMessages));
    }
    // Between compactions the prompt only grows at its end.
    harness.reports.forEach((report, step) => {
      if (step > 0 && report.action === 'reused') expect(sharedStart(sent[step - 1]!, sent[step]!)).toBe(sent[step - 1]!.length);
    });
  });
});
