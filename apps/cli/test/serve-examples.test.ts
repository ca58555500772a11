import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequests, startFakeModelServer, type FakeModel, type FakeModelServer } from '@ollm/fake-model-server';
import { binaryBuilt, binaryPath, runBinary } from './chat-driver.js';
import { temporaryFolder } from './run-ollm.js';

const examplesFolder = fileURLToPath(new URL('../../../examples/serve/', import.meta.url));
const SMALL_MODEL: FakeModel = { name: 'small:4k', family: 'llama', parameterSize: '8.0B', contextLength: 4096 };
const LISTENING = /^ollm serve: listening on (http:\/\/127\.0\.0\.1:\d+) -> /m;

interface Exited {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node <file>` to its end without blocking this process (the fake server answers from it). */
function runNode(file: string, env: Record<string, string>, cwd: string): Promise<Exited> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { cwd, env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The `x-ollm-context` headers an example printed, one per request: `turn  7: compacted; tokens=…`. */
function printedHeaders(stdout: string): Record<string, string>[] {
  return stdout
    .split('\n')
    .filter((line) => /^turn +\d+(\.\d+)?: /.test(line))
    .map((line) => {
      const [action = '', ...rest] = line.replace(/^turn +[\d.]+: /, '').split('; ');
      return Object.fromEntries([['action', action], ...rest.map((field) => [field.split('=')[0]!, field.split('=').slice(1).join('=')])]);
    });
}

/**
 * The examples in examples/serve, as a user runs them: the real `ollm serve` binary in front of
 * the fake model server (which refuses any request over its 4,096-token window), each example run
 * with `node` and pointed at the proxy by OLLM_SERVE_URL alone.
 */
describe.skipIf(!binaryBuilt)('examples/serve through the real ollm serve binary', () => {
  let fake: FakeModelServer;
  let folder: ReturnType<typeof temporaryFolder>;
  let home: string;
  let proxy: ChildProcessWithoutNullStreams;
  let proxyUrl: string;
  let proxyStderr = '';
  let proxyExit: Promise<number | null>;

  beforeAll(async () => {
    fake = await startFakeModelServer({ models: [SMALL_MODEL], enforceWindow: true });
    folder = temporaryFolder();
    home = join(folder.path, 'home');
    proxy = spawn(process.execPath, [binaryPath, 'serve', '--upstream', fake.url, '--port', '0'], {
      cwd: folder.path,
      env: { PATH: process.env['PATH'] ?? '', OLLM_HOME: home, HOME: folder.path },
      stdio: 'pipe',
    });
    proxyExit = new Promise((resolve) => proxy.on('close', (code) => resolve(code)));
    proxyUrl = await new Promise<string>((resolve, reject) => {
      proxy.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        proxyStderr += chunk;
        const match = LISTENING.exec(proxyStderr);
        if (match) resolve(match[1]!);
      });
      void proxyExit.then((code) => reject(new Error(`ollm serve ended (${String(code)}) before listening:\n${proxyStderr}`)));
    });
  });

  afterAll(async () => {
    if (proxy.exitCode === null && proxy.signalCode === null) {
      proxy.kill('SIGTERM');
      await proxyExit;
    }
    await fake.close();
    folder.remove();
  });

  for (const [file, path] of [
    ['openai-client.mjs', '/v1/chat/completions'],
    ['ollama-client.mjs', '/api/chat'],
  ] as const) {
    it(`${file}: 40 turns, compacted then reused, nothing over the window`, async () => {
      const before = chatRequests(fake).length;
      const run = await runNode(join(examplesFolder, file), { OLLM_SERVE_URL: proxyUrl, OLLM_MODEL: SMALL_MODEL.name }, examplesFolder);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const headers = printedHeaders(run.stdout);
      // The fake model never asks for a tool: one request per turn.
      expect(headers).toHaveLength(40);
      const actions = headers.map((fields) => fields['action']);
      expect(actions.every((action) => action === 'fits' || action === 'compacted' || action === 'reused')).toBe(true);
      const firstCompacted = actions.indexOf('compacted');
      expect(firstCompacted).toBeGreaterThan(0);
      expect(actions.slice(firstCompacted + 1)).toContain('reused');
      // The next turn after a compaction reuses it: nothing goes through the pipeline again.
      expect(headers[firstCompacted + 1]).toMatchObject({ action: 'reused', processed: '0', window: '4096', reserve: '256' });
      expect(run.stdout).toMatch(/^40 turns, 161 messages kept by the client: \d+ fits, \d+ compacted, \d+ reused$/m);

      const chats = chatRequests(fake).slice(before);
      expect(chats).toHaveLength(40);
      expect(chats.every((request) => request.path === path)).toBe(true);
      // The fake server refuses anything over the window: every request was answered, and fits.
      for (const request of chats) {
        expect(request.fault).toBeUndefined();
        expect(request.maxTokens).toBe(256);
        expect(request.promptTokens + 256).toBeLessThanOrEqual(SMALL_MODEL.contextLength!);
        expect((request.body as { tools?: unknown[] }).tools).toHaveLength(1);
      }
      // What compaction removed is in the file store under OLLM_HOME: `ollm recover` prints it.
      const reference = headers[firstCompacted]!['refs']!.split(',')[0]!;
      const recovered = await runBinary(['recover', reference], { OLLM_HOME: home, HOME: folder.path }, folder.path);
      expect(recovered.code).toBe(0);
      expect(recovered.stdout.length).toBeGreaterThan(0);
    });
  }

  it('logged what it did to each compacted request, and stops on SIGTERM', async () => {
    expect(proxyStderr).toMatch(
      /^ollm serve: POST \/v1\/chat\/completions small:4k: [\d,]+ -> [\d,]+ tokens \(budget [\d,]+ of a 4,096 window\) · compacted /m,
    );
    expect(proxyStderr).toMatch(/^ollm serve: POST \/api\/chat small:4k: [\d,]+ -> [\d,]+ tokens .* · reused the compaction of \d+ messages · /m);
    proxy.kill('SIGTERM');
    expect(await proxyExit).toBe(0);
    expect(proxyStderr.trimEnd().split('\n').at(-1)).toBe('ollm serve: stopped');
  });
});
