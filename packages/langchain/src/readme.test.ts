import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { RECOVERY_FOLDER, sha256Hex } from '@ollm/core';
import { startFakeModelServer, type FakeChatRequest, type FakeModelServer } from '@ollm/fake-model-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chats, fileContent, pairingProblems, temporaryFolders } from './test-support/agent-fixtures.js';

const packageFolder = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(join(packageFolder, 'README.md'), 'utf8');
/** The README's JavaScript blocks that use this package: the examples a user copies. */
const examples = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]!).filter((code) => code.includes("from '@ollm/langchain'"));
/** The model and window the examples name, which the fake server then serves. */
const MODEL = { name: 'qwen3:8b', contextLength: 4096 };
const FILES = 30;
const ANSWER = 'The project is a set of modules.';

const folder = temporaryFolders('ollm-langchain-readme-');
let fake: FakeModelServer | undefined;
let written: string | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  if (written) rmSync(written, { force: true });
  written = undefined;
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('the README examples', () => {
  it('are the two examples, naming the model and the window the fake server serves', () => {
    expect(examples).toHaveLength(2);
    for (const code of examples) {
      expect(code).toContain(`model: '${MODEL.name}'`);
      expect(code).toContain(`contextSize: ${MODEL.contextLength}`);
    }
    expect(examples[1]).toContain('recall: true');
  });

  it.each(examples.map((code, index) => [index, code] as const))(
    'example %i runs as written against a 4,096-token server, every call inside its window',
    async (index, code) => {
      const home = folder();
      const paths = Array.from({ length: FILES }, (_, file) => {
        const path = join(home, `module-${file}.ts`);
        writeFileSync(path, fileContent(path));
        return path;
      });
      let issued = 0;
      let recalled: string | undefined;
      /** The fake model reads the files one by one; offered the recall tool, it takes one folded output back once. */
      const toolCalls = (request: FakeChatRequest) => {
        if (recalled === undefined && request.toolNames?.includes('recall')) {
          for (const message of request.messages) {
            for (const part of message.parts) {
              // A tool output reduced in place, or a digest's header line for an output it quotes.
              const text = part.type === 'tool-result' ? part.output : part.type === 'text' && message.role === 'assistant' ? part.text : undefined;
              const references = text === undefined ? [] : [...text.matchAll(/\[ollm fold ([0-9a-f]{12})\]/g)].map((match) => match[1]!);
              const reference = references.find((candidate) => paths.some((path) => sha256Hex(readFileSync(path, 'utf8')).startsWith(candidate)));
              const path = paths.find((candidate) => reference !== undefined && sha256Hex(readFileSync(candidate, 'utf8')).startsWith(reference));
              if (reference !== undefined && path !== undefined) {
                recalled = path;
                return [{ name: 'recall', arguments: { reference } }];
              }
            }
          }
        }
        return issued < FILES ? [{ name: 'read_file', arguments: { path: paths[issued++]! } }] : undefined;
      };
      fake = await startFakeModelServer({ models: [MODEL], enforceWindow: true, toolCalls, reply: () => ANSWER });
      vi.stubEnv('OPENAI_BASE_URL', `${fake.url}/v1`);
      vi.stubEnv('OLLM_HOME', join(home, 'ollm-home'));
      const printed: string[] = [];
      vi.spyOn(console, 'log').mockImplementation((...values: unknown[]) => void printed.push(values.join(' ')));
      // Next to the package, so its imports resolve as they do for a user's file.
      written = join(packageFolder, `readme-example-${index}.${process.pid}.mjs`);
      writeFileSync(written, code);

      await import(pathToFileURL(written).href);

      const calls = FILES + (recalled !== undefined ? 1 : 0);
      expect(printed).toEqual([`${2 * calls + 2} messages: ${ANSWER}`]);
      const requests = chats(fake);
      expect(requests).toHaveLength(calls + 1);
      for (const request of requests) {
        expect(request.model).toBe(MODEL.name);
        expect(request.promptTokens + (request.maxTokens ?? 0)).toBeLessThanOrEqual(MODEL.contextLength);
        expect(pairingProblems(request.messages)).toEqual([]);
      }
      // The history outgrew the window: the last request carried a compaction of it.
      expect(requests.at(-1)!.messages.length).toBeLessThan(2 * calls + 1);
      const removed = join(home, 'ollm-home', RECOVERY_FOLDER);
      expect(existsSync(removed) && readdirSync(removed).length).toBeGreaterThan(0);
      if (index === 0) {
        expect(
          requests.every((request) => !(request.body as { tools: { function: { name: string } }[] }).tools.some((tool) => tool.function.name === 'recall')),
        ).toBe(true);
        expect(recalled).toBeUndefined();
      } else {
        // The recall tool came with the one option, and gave back a folded output as it was.
        expect(recalled).toBeDefined();
        const recallCalls = new Set(
          requests.flatMap((request) =>
            request.messages.flatMap((message) => message.parts.flatMap((part) => (part.type === 'tool-call' && part.name === 'recall' ? [part.callId] : []))),
          ),
        );
        expect(recallCalls.size).toBe(1);
        const answered = requests
          .flatMap((request) => request.messages.flatMap((message) => message.parts))
          .find((part) => part.type === 'tool-result' && recallCalls.has(part.callId));
        expect(answered).toMatchObject({ output: readFileSync(recalled!, 'utf8') });
      }
    },
  );
});
