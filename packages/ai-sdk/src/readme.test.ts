import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createTokenizer, TokenCounter } from '@ollm/core';
import { chatRequests, startFakeModelServer, type FakeChatRequest, type FakeModelServer } from '@ollm/fake-model-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fileText, temporaryFolder } from './test-support/agent-fixture.js';

const packageFolder = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(join(packageFolder, 'README.md'), 'utf8');
/** The README's JavaScript blocks that use this package: the examples a user copies. */
const examples = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]!).filter((code) => code.includes("from '@ollm/ai-sdk'"));
/** The model and window the examples name, which the fake server then serves. */
const MODEL = { name: 'qwen3:8b', contextLength: 4096 };
const FILES = 30;
/** `node example.mjs` resolves `@ollm/ai-sdk` to dist, as for a user (`pnpm build` first; `pnpm test` does). */
const built = existsSync(join(packageFolder, 'dist', 'index.js'));

let fake: FakeModelServer | undefined;
let folder: ReturnType<typeof temporaryFolder> | undefined;
let written: string | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  folder?.remove();
  folder = undefined;
  if (written) rmSync(written, { force: true });
  written = undefined;
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** Runs `node <file>` to its end without blocking this process (the fake server answers from it). */
function runNode(file: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { cwd: packageFolder, env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Runs one README example against the fake server serving its model at a 4,096-token window
 * (refusing any call over it), the example pointed there by OPENAI_BASE_URL alone: the fake model
 * reads 30 files one by one, and with the recall tool offered takes one folded output back once.
 */
async function runExample(index: number, code: string, how: 'sources' | 'node') {
  folder = temporaryFolder();
  const paths = Array.from({ length: FILES }, (_, file) => {
    const path = join(folder!.path, `module-${file}.ts`);
    writeFileSync(path, fileText(file));
    return path;
  });
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  let issued = 0;
  let recalled: string | undefined;
  const toolCalls = (request: FakeChatRequest) => {
    if (recalled === undefined && request.toolNames?.includes('recall')) {
      for (const message of request.messages) {
        for (const part of message.parts) {
          const reference = part.type === 'tool-result' ? /\[ollm fold ([0-9a-f]{12})\]/.exec(part.output)?.[1] : undefined;
          const path = paths.find((candidate) => reference !== undefined && sha256(readFileSync(candidate, 'utf8')).startsWith(reference));
          if (reference !== undefined && path !== undefined) {
            recalled = path;
            return [{ name: 'recall', arguments: { reference } }];
          }
        }
      }
    }
    return issued < FILES ? [{ name: 'read_file', arguments: { path: paths[issued++]! } }] : undefined;
  };
  fake = await startFakeModelServer({ models: [MODEL], enforceWindow: true, toolCalls, reply: () => 'The project is a set of modules.' });
  const env = { OPENAI_BASE_URL: `${fake.url}/v1`, OLLM_HOME: join(folder.path, 'home'), HOME: folder.path };
  // Next to the package, so its imports resolve as they do for a user's file.
  written = join(packageFolder, `readme-example-${index}.${process.pid}.mjs`);
  writeFileSync(written, code);
  let printed: string[];
  if (how === 'node') {
    const exited = await runNode(written, env);
    expect(exited.stderr).toBe('');
    expect(exited.code).toBe(0);
    printed = exited.stdout.trimEnd().split('\n');
  } else {
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    printed = [];
    vi.spyOn(console, 'log').mockImplementation((...values: unknown[]) => void printed.push(values.join(' ')));
    await import(pathToFileURL(written).href);
  }

  const chats = chatRequests(fake);
  const steps = FILES + 1 + (recalled !== undefined ? 1 : 0);
  expect(printed).toEqual([`${steps} steps: The project is a set of modules.`]);
  expect(chats).toHaveLength(steps);
  for (const request of chats) {
    expect(request.promptTokens + (request.maxTokens ?? 0)).toBeLessThanOrEqual(MODEL.contextLength);
    expect(request.responseBody).toBeDefined();
  }
  // The files alone are several windows: every call fit because the middleware compacted.
  const counter = new TokenCounter(createTokenizer('o200k_base'));
  const fileTokens = paths.reduce((sum, path) => sum + counter.countText(readFileSync(path, 'utf8')), 0);
  expect(fileTokens).toBeGreaterThan(3 * MODEL.contextLength);
  if (code.includes('recall: true')) {
    expect(recalled).toBeDefined();
    const parts = chats.flatMap((request) => request.messages).flatMap((message) => message.parts);
    const recallCall = parts.find((part) => part.type === 'tool-call' && part.name === 'recall') as { callId: string };
    const result = parts.find((part) => part.type === 'tool-result' && part.callId === recallCall.callId) as { output: string };
    expect(result.output).toBe(readFileSync(recalled!, 'utf8'));
  } else {
    expect(recalled).toBeUndefined();
  }
}

describe('the README examples', () => {
  it('are the two examples, naming the model and the window the fake server serves', () => {
    expect(examples).toHaveLength(2);
    for (const code of examples) {
      expect(code).toContain(`ollama('${MODEL.name}')`);
      expect(code).toContain(`contextSize: ${MODEL.contextLength}`);
    }
  });

  const cases = examples.map((code, index) => [index, code] as const);
  it.each(cases)('example %i runs as written (on the sources), every call inside the window', (index, code) => runExample(index, code, 'sources'));
  it.skipIf(!built).each(cases)('example %i runs as written with node (on dist), every call inside the window', (index, code) =>
    runExample(index, code, 'node'),
  );
});
