import { Ollama, type Message as OllamaMessage } from 'ollama';
import { afterEach, describe, expect, it } from 'vitest';
import { SMALL_MODEL, startProxyHarness, type ProxyHarness } from '../test-support/proxy-harness.js';
import { fileText, question } from '../test-support/agent-conversation.js';

const REPLY_LIMIT = 200;
const PREFILL = 5;

let harness: ProxyHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("ollm serve in front of a server that cuts prompts over its window silently (Ollama's truncation)", () => {
  it('sees the estimate was short in a reported size near the window, does not learn from it as a count, and compacts lower until nothing is cut', async () => {
    // The server counts 1.5x ollm's o200k count and, over its 4,096 window, drops the oldest messages and reports the cut size.
    harness = await startProxyHarness({ fake: { enforceWindow: false, truncateOverWindow: true, reportedPromptTokenScale: 1.5 } });
    const client = new Ollama({ host: harness.proxy.url });
    const messages: OllamaMessage[] = [{ role: 'system', content: 'You are a careful coding agent.' }];
    const addTurn = (turn: number) =>
      messages.push(
        { role: 'user', content: question(turn) },
        { role: 'assistant', content: '', tool_calls: [{ function: { name: 'read_file', arguments: { path: 'a.ts' } } }] },
        { role: 'tool', tool_name: 'read_file', content: fileText(turn) },
      );
    // A session resumed with a long history: the first request is compacted before the proxy learnt anything of this server.
    for (let turn = 0; turn < PREFILL; turn += 1) {
      addTurn(turn);
      messages.push({ role: 'assistant', content: `Turn ${turn} done.` });
    }
    for (let turn = PREFILL; turn < PREFILL + 30; turn += 1) {
      addTurn(turn);
      const reply = await client.chat({ model: SMALL_MODEL.name, messages, stream: false, options: { num_ctx: 4096, num_predict: REPLY_LIMIT } });
      messages.push({ role: 'assistant', content: reply.message.content });
    }
    const chats = harness.fake.requests.filter((request) => request.path === '/api/chat');
    const cut = chats.map((request, index) => ({ index, cut: request.truncated === true })).filter((entry) => entry.cut);
    expect(cut.length).toBeGreaterThan(0);
    // A cut the first request met is a size like any other (nothing was learnt yet to tell it by);
    // a size near the window over the estimate is flagged, and from it on nothing is cut.
    const flagged = harness.reports.flatMap((report, index) => (report.serverCut ? [index] : []));
    expect(flagged.length).toBeGreaterThan(0);
    expect(cut.every((entry) => entry.index <= flagged[0]!)).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(2);
    expect(chats.slice(-20).every((request) => request.truncated !== true && Math.round(request.promptTokens * 1.5) <= 4096)).toBe(true);
    expect(harness.reports.at(-1)!.calibration).toBeGreaterThanOrEqual(1.5);
    expect(harness.logs.filter((line) => line.includes('Not learnt from as a count'))).toHaveLength(1);
  });
});
