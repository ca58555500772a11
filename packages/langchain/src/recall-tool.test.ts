import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ToolMessage } from '@langchain/core/messages';
import { createTokenizer, RECOVERY_FOLDER, saveRemovedContent, sha256Hex, TokenCounter, type Message } from '@ollm/core';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { RECALL_TOOL_NAME } from '@ollm/runtime';
import { createAgent } from 'langchain';
import { afterEach, describe, expect, it } from 'vitest';
import { contextMiddleware } from './context-middleware.js';
import { createRecallTool } from './recall-tool.js';
import { MODELS, TASK, WINDOW, chats, fileContent, pairingProblems, readFile, stepPath, temporaryFolders, testModel } from './test-support/agent-fixtures.js';

const folder = temporaryFolders('ollm-langchain-recall-');
const PLACEHOLDER = /\[ollm fold ([0-9a-f]{12})\]/;

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The path the read_file call answered by `tool` asked for, from the assistant message before it. */
function pathOf(messages: readonly Message[], position: number, callId: string): string | undefined {
  for (let index = position - 1; index >= 0; index -= 1) {
    for (const part of messages[index]!.parts) {
      if (part.type !== 'tool-call' || part.callId !== callId) continue;
      // The server reads OpenAI's arguments as the JSON string they are.
      const input = typeof part.input === 'string' ? (JSON.parse(part.input) as unknown) : part.input;
      return (input as { path?: string }).path;
    }
  }
  return undefined;
}

/** A digest's header line for one output it quotes: `$ <path> [ollm fold <reference of that output>]`. */
const DIGEST_HEADER = /^\$ (\S+) \[ollm fold ([0-9a-f]{12})\]$/gm;

/**
 * A placeholder that stands for a read_file output (its reference prefixes that output's sha256):
 * in a tool message reduced in place, or a header line of a digest of older turns.
 */
function foldedOutput(messages: readonly Message[]): { reference: string; path: string } | undefined {
  for (const [position, message] of messages.entries()) {
    for (const part of message.parts) {
      if (part.type === 'text' && message.role === 'assistant') {
        for (const [, path, reference] of part.text.matchAll(DIGEST_HEADER)) {
          if (sha256Hex(fileContent(path!)).startsWith(reference!)) return { reference: reference!, path: path! };
        }
      }
      if (part.type !== 'tool-result') continue;
      const reference = PLACEHOLDER.exec(part.output)?.[1];
      const path = reference ? pathOf(messages, position, part.callId) : undefined;
      if (reference && path && sha256Hex(fileContent(path)).startsWith(reference)) return { reference, path };
    }
  }
  return undefined;
}

describe('the recall tool', () => {
  it('lets the model take back a folded tool output by the reference in its placeholder, byte for byte', async () => {
    const logdir = folder();
    let step = 0;
    let recalled: { reference: string; path: string; callNumber: number } | undefined;
    let calls = 0;
    server = await startFakeModelServer({
      models: MODELS,
      enforceWindow: true,
      toolCalls: (request) => {
        calls += 1;
        if (!request.toolNames?.includes(RECALL_TOOL_NAME)) return undefined;
        if (recalled) return undefined;
        const found = foldedOutput(request.messages);
        if (found) {
          recalled = { ...found, callNumber: calls };
          return [{ name: RECALL_TOOL_NAME, arguments: { reference: found.reference } }];
        }
        step += 1;
        return step <= 40 ? [{ name: 'read_file', arguments: { path: stepPath(step) } }] : undefined;
      },
    });
    const agent = createAgent({
      model: testModel(server),
      tools: [readFile],
      middleware: [contextMiddleware({ contextSize: WINDOW, logdir, recall: true })],
    });

    const result = await agent.invoke({ messages: [{ role: 'user', content: TASK }] }, { recursionLimit: 200 });

    expect(recalled).toBeDefined();
    const { reference, path, callNumber } = recalled!;
    const requests = chats(server);
    expect(requests).toHaveLength(callNumber + 1);
    for (const request of requests) {
      expect(request.promptTokens + (request.maxTokens ?? 0)).toBeLessThanOrEqual(WINDOW);
      expect(pairingProblems(request.messages)).toEqual([]);
    }
    // The request that followed the recall call ends with its result: the removed output exactly.
    const removed = readdirSync(join(logdir, RECOVERY_FOLDER)).find((name) => name.startsWith(reference));
    expect(removed).toBeDefined();
    const saved = readFileSync(join(logdir, RECOVERY_FOLDER, removed!), 'utf8');
    expect(saved).toBe(fileContent(path));
    const next = requests[callNumber]!;
    const wire = (next.body as { messages: { role: string; content: unknown }[] }).messages.at(-1)!;
    expect(wire.role).toBe('tool');
    expect(wire.content).toBe(saved);
    const answer = result.messages.filter((message) => ToolMessage.isInstance(message)).at(-1) as ToolMessage;
    expect(answer.name).toBe(RECALL_TOOL_NAME);
    expect(answer.content).toBe(fileContent(path));
    expect(answer.status).not.toBe('error');
  });

  it('returns long content in pages of at most maxTokens, and an unknown reference as an error the model reads', async () => {
    const logdir = folder();
    const text = Array.from({ length: 300 }, (_, line) => `line ${line}: parse_limit(${line * 7}) ${'x'.repeat(line % 17)}`).join('\n');
    const { sha256 } = saveRemovedContent(logdir, text);
    const tokens = new TokenCounter(createTokenizer('o200k_base'));
    expect(tokens.countText(text)).toBeGreaterThan(2000);
    const recall = createRecallTool({ logdir, maxTokens: 500, tokens });

    // The model reads on from where each page says the next starts, and gets the whole text, page by page.
    let joined = '';
    let offset: number | undefined = 0;
    let pages = 0;
    while (offset !== undefined) {
      const page = (await recall.invoke({ reference: sha256.slice(0, 12), ...(offset > 0 ? { offset } : {}) })) as string;
      const [content, note] = page.split('\n[ollm recall: characters ');
      expect(tokens.countText(content!)).toBeLessThanOrEqual(500);
      joined += content;
      pages += 1;
      offset = note ? Number(/call recall with offset (\d+) for more/.exec(note)![1]) : undefined;
    }
    expect(joined).toBe(text);
    expect(pages).toBeGreaterThan(4);

    await expect(recall.invoke({ reference: '0123456789ab' })).rejects.toThrow(/Nothing removed from this conversation has the reference 0123456789ab/);
    await expect(recall.invoke({ reference: 'not hex' })).rejects.toThrow(/is not a reference/);
  });

  it('is registered only when asked for', () => {
    expect(contextMiddleware({ contextSize: WINDOW, logdir: folder() }).tools ?? []).toEqual([]);
    const tools = contextMiddleware({ contextSize: WINDOW, logdir: folder(), recall: true }).tools ?? [];
    expect(tools.map((tool) => (tool as { name: string }).name)).toEqual([RECALL_TOOL_NAME]);
    expect(() => contextMiddleware({ contextSize: WINDOW, recall: { maxTokens: 0 } })).toThrow(
      /recall.maxTokens must be a whole number of tokens, 1 or more; got 0/,
    );
  });
});
