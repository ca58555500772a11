import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTEXT_HEADER } from './context-report.js';
import { SMALL_MODEL, startProxyHarness, type ProxyHarness } from '../test-support/proxy-harness.js';
import { contextFields, fileText, question } from '../test-support/agent-conversation.js';

let harness: ProxyHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

// What Claude Code sends: the system prompt as blocks with cache_control, a 32,000-token reply limit on
// every request whatever the window, tool results in user turns beside text.
const SYSTEM = [{ type: 'text' as const, text: 'You are Claude Code, a careful coding agent.', cache_control: { type: 'ephemeral' as const } }];
const TOOLS = [{ name: 'Read', description: 'Read a file', input_schema: { type: 'object' as const, properties: { path: { type: 'string' } } } }];

type Sent = { system?: unknown; max_tokens: number; messages: { role: string; content: unknown }[] };

/** tool_use ids called and tool_result ids answered, in order: every result answers an earlier call. */
function unpaired(messages: Sent['messages']): string[] {
  const open = new Set<string>();
  const problems: string[] = [];
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as { type: string; id?: string; tool_use_id?: string }[]) {
      if (block.type === 'tool_use') open.add(block.id!);
      if (block.type === 'tool_result' && !open.delete(block.tool_use_id!)) problems.push(`result ${block.tool_use_id} without its call`);
    }
  }
  return problems;
}

describe('ollm serve with the @anthropic-ai/sdk client (/v1/messages)', () => {
  it('keeps a 60-turn tool-using session inside a 4,096 window, streamed and not, the system blocks and the newest question as sent', async () => {
    harness = await startProxyHarness();
    const client = new Anthropic({ baseURL: harness.proxy.url, apiKey: 'sk-ant-serve-test', maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [];
    const actions: string[] = [];
    for (let turn = 0; turn < 60; turn += 1) {
      const id = `toolu_${turn}`;
      if (turn === 0) messages.push({ role: 'user', content: question(turn) });
      else {
        messages.push({
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: `toolu_${turn - 1}`, content: fileText(turn) },
            { type: 'text', text: question(turn) },
          ],
        });
      }
      let text: string;
      if (turn % 2 === 0) {
        // Not streamed, the SDK itself refuses a limit it expects to take over ten minutes: 16,000 here.
        const params = { model: SMALL_MODEL.name, max_tokens: 16_000, system: SYSTEM, tools: TOOLS, messages };
        const { data, response } = await client.messages.create(params).withResponse();
        actions.push(contextFields(response.headers.get(CONTEXT_HEADER))['action']!);
        text = data.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      } else {
        const stream = client.messages.stream({ model: SMALL_MODEL.name, max_tokens: 32_000, system: SYSTEM, tools: TOOLS, messages });
        const final = await stream.finalMessage();
        text = final.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
        actions.push('streamed');
      }
      messages.push({
        role: 'assistant',
        content: [
          { type: 'text', text: text || 'Reading on.' },
          { type: 'tool_use', id, name: 'Read', input: { path: `src/module-${turn % 17}.ts` } },
        ],
      });
    }

    const chats = harness.fake.requests.filter((request) => request.path === '/v1/messages');
    expect(chats).toHaveLength(60);
    // The fake server refuses anything over its window: every request was answered, and fits with its reply limit.
    for (const [turn, request] of chats.entries()) {
      const sent = request.body as Sent;
      expect(request.promptTokens + sent.max_tokens, `turn ${turn}`).toBeLessThanOrEqual(SMALL_MODEL.contextLength!);
      expect(sent.system, `turn ${turn}`).toEqual(SYSTEM);
      expect(unpaired(sent.messages), `turn ${turn}`).toEqual([]);
      const last = sent.messages.at(-1)!;
      expect(JSON.stringify(last.content)).toContain(question(turn));
    }
    expect(harness.reports.some((report) => report.action === 'compacted')).toBe(true);
    expect(harness.reports.some((report) => report.action === 'reused')).toBe(true);
    expect(actions.filter((action) => action === 'compacted' || action === 'reused').length).toBeGreaterThan(0);
  });

  it('reuses its compactions when the client moves its cache_control breakpoint to the newest message every turn (Claude Code)', async () => {
    harness = await startProxyHarness();
    const client = new Anthropic({ baseURL: harness.proxy.url, apiKey: 'sk-ant-serve-test', maxRetries: 0 });
    const history: Anthropic.MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: question(0) }] }];
    const breakpoint = { type: 'ephemeral' as const };
    for (let turn = 0; turn < 30; turn += 1) {
      // Only the newest block carries the breakpoint: the one before loses it, as Claude Code sends.
      const messages = history.map((message, index) =>
        index === history.length - 1 && Array.isArray(message.content)
          ? { ...message, content: message.content.map((block, at, all) => (at === all.length - 1 ? { ...block, cache_control: breakpoint } : block)) }
          : message,
      ) as Anthropic.MessageParam[];
      await client.messages.create({ model: SMALL_MODEL.name, max_tokens: 256, system: SYSTEM, tools: TOOLS, messages });
      const id = `toolu_${turn}`;
      history.push(
        { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Read', input: { path: `src/module-${turn % 17}.ts` } }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: id, content: fileText(turn) },
            { type: 'text', text: question(turn + 1) },
          ],
        },
      );
    }
    const actions = harness.reports.map((report) => report.action);
    expect(actions).toContain('compacted');
    expect(actions.filter((action) => action === 'reused').length).toBeGreaterThan(actions.filter((action) => action === 'compacted').length);
  });

  it('sends the newest call and its result as they came when role-system reminders inside messages leave little room (Claude Code)', async () => {
    harness = await startProxyHarness();
    const client = new Anthropic({ baseURL: harness.proxy.url, apiKey: 'sk-ant-serve-test', maxRetries: 0 });
    const reminder = (text: string) => ({ role: 'system', content: `${text} ${Array.from({ length: 120 }, (_, index) => `note${index}`).join(' ')}` });
    const messages: unknown[] = [{ role: 'user', content: [{ type: 'text', text: question(0) }] }, reminder('Agents you may call:')];
    for (let turn = 0; turn < 12; turn += 1) {
      if (turn === 6) messages.push(reminder('The task tools have not been used recently.'));
      messages.push(
        { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${turn}`, name: 'Read', input: { path: `src/module-${turn}.ts` } }] },
        // The newest result is the largest: more than fold's share for the newest turns at this window.
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: `toolu_${turn}`,
              content: turn === 11 ? [0, 1, 2, 3].map((index) => fileText(turn + index)).join('\n') : fileText(turn),
            },
          ],
        },
      );
    }
    await client.messages.create({ model: SMALL_MODEL.name, max_tokens: 1024, system: SYSTEM, tools: TOOLS, messages: messages as Anthropic.MessageParam[] });
    expect(harness.reports[0]!.action).toBe('compacted');
    const sent = (harness.fake.requests.find((request) => request.path === '/v1/messages')!.body as Sent).messages;
    expect(sent.slice(-2)).toEqual(messages.slice(-2));
    expect(unpaired(sent)).toEqual([]);
  });

  it("refuses a prompt no compaction can fit in Anthropic's own error shape and words, nothing sent upstream", async () => {
    harness = await startProxyHarness();
    const client = new Anthropic({ baseURL: harness.proxy.url, apiKey: 'sk-ant-serve-test', maxRetries: 0 });
    const huge = Array.from({ length: 3000 }, (_, index) => `word${index}`).join(' ');
    const failure = await client.messages
      .create({ model: SMALL_MODEL.name, max_tokens: 1024, messages: [{ role: 'user', content: huge }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Anthropic.BadRequestError);
    const body = (failure as { error: { type: string; error: { type: string; message: string } } }).error;
    expect(body.type).toBe('error');
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toMatch(/^prompt is too long: \d+ tokens > 4096 maximum/);
    expect(harness.fake.requests.filter((request) => request.path === '/v1/messages')).toHaveLength(0);
  });

  it("reads role-system messages inside messages (Claude Code's reminders) and keeps them where they were", async () => {
    harness = await startProxyHarness();
    const messages: { role: string; content: unknown }[] = [{ role: 'user', content: question(0) }];
    for (let turn = 1; turn < 40; turn += 1) {
      messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${turn}`, name: 'Read', input: { path: `src/module-${turn}.ts` } }] });
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${turn}`, content: fileText(turn) }] });
      if (turn === 20) messages.push({ role: 'system', content: 'Reminder: the tests live in tests/.' });
    }
    messages.push({ role: 'user', content: question(40) });
    const response = await fetch(`${harness.proxy.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: SMALL_MODEL.name, max_tokens: 32_000, system: 'You are Claude Code.', messages }),
    });
    expect(response.status).toBe(200);
    expect(contextFields(response.headers.get(CONTEXT_HEADER))['action']).toBe('compacted');
    const sent = harness.fake.requests.at(-1)!.body as Sent;
    expect(sent.system).toBe('You are Claude Code.');
    expect(sent.messages).toContainEqual({ role: 'system', content: 'Reminder: the tests live in tests/.' });
    expect(sent.messages[0]).toEqual(messages[0]);
    expect(sent.messages.at(-1)).toEqual(messages.at(-1));
    expect(sent.messages.length).toBeLessThan(messages.length);
  });

  it('answers count_tokens with what it would send: the compacted count, the compaction kept for the request that follows', async () => {
    harness = await startProxyHarness();
    const client = new Anthropic({ baseURL: harness.proxy.url, apiKey: 'sk-ant-serve-test', maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: question(0) }];
    for (let turn = 1; turn < 30; turn += 1) {
      messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${turn}`, name: 'Read', input: { path: `src/module-${turn}.ts` } }] });
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${turn}`, content: fileText(turn) }] });
    }
    messages.push({ role: 'user', content: question(30) });
    const params = { model: SMALL_MODEL.name, system: SYSTEM, tools: TOOLS, messages };
    const counted = await client.messages.countTokens(params);
    const report = harness.reports.at(-1) ?? undefined;
    // No chat went upstream for the count.
    expect(harness.fake.requests.filter((request) => request.path.startsWith('/v1/messages'))).toHaveLength(0);
    expect(counted.input_tokens).toBeGreaterThan(0);
    expect(counted.input_tokens).toBeLessThanOrEqual(SMALL_MODEL.contextLength! - Math.floor(SMALL_MODEL.contextLength! * 0.15));
    expect(report).toBeUndefined();
    // The request that follows stands on the compaction the count made.
    await client.messages.create({ ...params, max_tokens: 1000 });
    expect(harness.reports.at(-1)!.action).toBe('reused');
  });
});
