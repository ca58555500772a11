import OpenAI from 'openai';
import { createTokenizer, TokenCounter } from '@ollm/core';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTEXT_HEADER } from './context-report.js';
import { SMALL_MODEL, startProxyHarness, type ProxyHarness } from '../test-support/proxy-harness.js';
import { contextFields, fileText, question } from '../test-support/agent-conversation.js';

let harness: ProxyHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('an upstream that counts more than ollm and refuses (llama.cpp answers 400)', () => {
  it('learns from the refusal, compacts to the lower estimate and tries once more: the client never sees the 400', async () => {
    // The server counts 1.3x what ollm counts and refuses what is over its window.
    harness = await startProxyHarness({ fake: { reportedPromptTokenScale: 1.3 } });
    const client = new OpenAI({ baseURL: `${harness.proxy.url}/v1`, apiKey: 'sk-serve-test-key', maxRetries: 0 });
    // A history that fits ollm's budget as ollm counts it, and not as the server does: refused on the first try.
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'system', content: 'You are a careful coding agent.' }];
    const tokens = new TokenCounter(createTokenizer('o200k_base'));
    const size = () => messages.reduce((sum, message) => sum + tokens.countText(String(message.content)) + 8, 0);
    for (let turn = 0; size() < 3200; turn += 1) {
      messages.push({ role: 'user', content: `${question(turn)}\n${fileText(turn)}` });
      messages.push({ role: 'assistant', content: `It returns ${turn * 2 + 3}.` });
    }
    messages.push({ role: 'user', content: question(10) });
    const { data, response } = await client.chat.completions.create({ model: SMALL_MODEL.name, messages, max_tokens: 100 }).withResponse();
    expect(data.choices[0]?.message.content).toBeTruthy();
    expect(contextFields(response.headers.get(CONTEXT_HEADER))['action']).toBe('compacted');
    expect(harness.reports.map((report) => report.action)).toEqual(['compacted']);
    const chats = harness.fake.requests.filter((request) => request.path === '/v1/chat/completions');
    // One refusal upstream, one retry that fit; the client saw only the answer.
    expect(chats).toHaveLength(2);
    expect(chats[0]!.responseBody).toBeUndefined();
    expect(chats[1]!.responseBody).toBeDefined();
    expect(Math.round(chats[1]!.promptTokens * 1.3) + 100).toBeLessThanOrEqual(SMALL_MODEL.contextLength!);
    expect(harness.logs.some((line) => line.includes("refused small:4k's prompt as over its window (it counted"))).toBe(true);
  });
});
