import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterEach, describe, expect, it } from 'vitest';
import { createOllamaModel } from '@ollm/model-ollama';
import fold from '@ollm/plugin-fold';
import goalAware from '@ollm/plugin-goal-aware';
import { fileText, question } from '../test-support/agent-conversation.js';
import { SMALL_MODEL, startProxyHarness, type ProxyHarness } from '../test-support/proxy-harness.js';

let harness: ProxyHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('ollm serve with a model stage', () => {
  it('summarises old turns into checkpoints with a model on the upstream, and the checkpoints survive into the next requests', async () => {
    // The same upstream, a model stage: goal-aware asks the upstream's model (over Ollama's API) for checkpoints.
    harness = await startProxyHarness({
      stages: [goalAware, fold],
      summaryModel: (url) => createOllamaModel({ host: url, model: SMALL_MODEL.name, numCtx: 4096, maxRetries: 0 }),
    });
    const client = new OpenAI({ baseURL: `${harness.proxy.url}/v1`, apiKey: 'local', maxRetries: 0 });
    const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: 'You are a coding agent.' }];
    for (let turn = 0; turn < 40; turn += 1) {
      messages.push({ role: 'user', content: question(turn) });
      messages.push({ role: 'assistant', content: null, tool_calls: [{ id: `c${turn}`, type: 'function', function: { name: 'read_file', arguments: '{}' } }] });
      messages.push({ role: 'tool', tool_call_id: `c${turn}`, content: fileText(turn) });
      const completion = await client.chat.completions.create({ model: SMALL_MODEL.name, messages, max_tokens: 100 });
      messages.push({ role: 'assistant', content: completion.choices[0]?.message.content ?? '' });
    }
    const summaries = harness.fake.requests.filter((request) => request.path === '/api/chat');
    const chats = harness.fake.requests.filter((request) => request.path === '/v1/chat/completions');
    expect(summaries.length).toBeGreaterThan(0);
    expect(chats.every((request) => request.promptTokens + 100 <= 4096)).toBe(true);
    const withCheckpoint = chats.filter((request) => JSON.stringify(request.body).includes('[ollm checkpoint'));
    expect(withCheckpoint.length).toBeGreaterThan(5);
    expect(harness.reports.some((report) => report.action === 'compacted' && report.stages.includes('goal-aware'))).toBe(true);
    // Each summary call sees the span being summarised, not the whole history.
    const longest = Math.max(...summaries.map((request) => request.promptTokens));
    expect(longest).toBeLessThan(4096);
  });
});
