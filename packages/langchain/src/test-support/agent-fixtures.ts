import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatOpenAI } from '@langchain/openai';
import { tool } from '@langchain/core/tools';
import { checkMessageShape, type Message } from '@ollm/core';
import type { FakeModelServer, RecordedRequest } from '@ollm/fake-model-server';
import { afterEach } from 'vitest';
import { z } from 'zod';

/** The window of the fake model every test talks to. */
export const WINDOW = 4096;
/** The reply limit the test model is configured with (the server counts it against the window). */
export const REPLY_TOKENS = 256;
export const MODELS = [{ name: 'small:4k', contextLength: WINDOW }];
export const TASK = 'Read every file of the project one by one and report which of them defines parse_limit.';

/** Temporary folders, removed after each test. */
export function temporaryFolders(prefix: string): () => string {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });
  return () => {
    const folder = mkdtempSync(join(tmpdir(), prefix));
    folders.push(folder);
    return folder;
  };
}

/** The deterministic content of a project file: about 300 tokens of code naming the file. */
export function fileContent(path: string): string {
  const stem = path.replace(/^.*\//, '').replace(/\.ts$/, '').replace(/-/g, '_');
  const lines = [`// ${path}`, `import { parse_limit_${stem} } from './limits.js';`, ''];
  for (let line = 0; line < 12; line += 1) {
    lines.push(`export function ${stem}_step_${line}(value: number): number { return parse_limit_${stem}(value * ${line + 3}) + ${line}; }`);
  }
  return lines.join('\n');
}

/** The path the fake model reads at step `step`. */
export function stepPath(step: number): string {
  return `src/module-${step}.ts`;
}

export const readFile = tool(async ({ path }: { path: string }) => fileContent(path), {
  name: 'read_file',
  description: 'Read a file of the project.',
  schema: z.object({ path: z.string().describe('The path of the file.') }),
});

export function testModel(server: FakeModelServer): ChatOpenAI {
  return new ChatOpenAI({ model: 'small:4k', apiKey: 'x', configuration: { baseURL: `${server.url}/v1` }, maxRetries: 0, maxTokens: REPLY_TOKENS });
}

/** The chat requests the server received. */
export function chats(server: FakeModelServer): RecordedRequest[] {
  return server.requests.filter((request) => request.path === '/v1/chat/completions');
}

/** Problems with one request's messages, as an OpenAI-compatible server checks them: pairing and emptiness. */
export function shapeProblems(messages: readonly Message[]): string[] {
  return checkMessageShape(messages, 'openai').map((violation) => `${violation.rule} at ${violation.position}: ${violation.detail}`);
}

/** Every tool call of the request's assistant messages answered right after it, and every tool message answering one. */
export function pairingProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  for (const [position, message] of messages.entries()) {
    if (message.role !== 'tool') continue;
    let previous = position - 1;
    while (previous >= 0 && messages[previous]!.role === 'tool') previous -= 1;
    const calls = previous >= 0 && messages[previous]!.role === 'assistant' ? messages[previous]!.parts : [];
    for (const part of message.parts) {
      if (part.type === 'tool-result' && !calls.some((call) => call.type === 'tool-call' && call.callId === part.callId)) {
        problems.push(`tool message ${position} answers ${part.callId}, which the assistant message before it does not call`);
      }
    }
  }
  for (const [position, message] of messages.entries()) {
    for (const part of message.parts) {
      if (part.type !== 'tool-call') continue;
      let next = position + 1;
      let answered = false;
      while (next < messages.length && messages[next]!.role === 'tool') {
        if (messages[next]!.parts.some((result) => result.type === 'tool-result' && result.callId === part.callId)) answered = true;
        next += 1;
      }
      if (!answered) problems.push(`call ${part.callId} of message ${position} has no result after it`);
    }
  }
  return problems;
}
