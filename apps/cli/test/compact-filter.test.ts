import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTokenizer, TokenCounter } from '@ollm/core';
import { chatRequests, startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { parseTranscript, readTranscript } from '@ollm/transcripts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { binaryBuilt, binaryPath } from './chat-driver.js';
import { fixturesPresent, sweAgentFixture } from './fixture-paths.js';
import { runOllm, temporaryFolder } from './run-ollm.js';
import { testRegistry } from './test-providers.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));

/** A transcript with a comma missing in its second message: malformed JSON at line 3, column 24. */
const BROKEN_JSON = '[\n  {"role": "user", "content": "hi"},\n  {"role": "assistant" "content": "hello"}\n]\n';

/** Chunks of stdin, counting how many were taken and whether the reader closed the stream. */
function countingInput(chunks: Iterable<Uint8Array>): { input: AsyncIterable<Uint8Array>; pulled: () => number; closed: () => boolean } {
  let pulled = 0;
  let closed = false;
  async function* input(): AsyncGenerator<Uint8Array> {
    try {
      for (const chunk of chunks) {
        pulled += 1;
        yield chunk;
      }
    } finally {
      closed = true;
    }
  }
  return { input: input(), pulled: () => pulled, closed: () => closed };
}

describe.skipIf(!fixturesPresent)('ollm compact as a filter (in-process)', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let env: Record<string, string>;
  beforeEach(() => {
    folder = temporaryFolder();
    env = { OLLM_HOME: join(folder.path, 'home'), HOME: folder.path };
  });
  afterEach(() => folder.remove());

  const compact = (args: string[], stdin?: string | Uint8Array | AsyncIterable<Uint8Array>) =>
    runOllm(['--no-plugins', 'compact', ...args], { cwd: folder.path, env, registry: testRegistry(), ...(stdin === undefined ? {} : { stdin }) });

  it('compact - reads stdin and writes the same transcript a file run writes to stdout, the summary to stderr', async () => {
    const args = ['--provider', 'placeholder', '--limit', '9000'];
    const fromFile = await compact([sweAgentFixture, ...args]);
    const fromStdin = await compact(['-', ...args], readFileSync(sweAgentFixture));
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(fromStdin.stdoutBytes.equals(fromFile.stdoutBytes)).toBe(true);
    expect(fromStdin.stderr).toMatch(
      /^placeholder: 18,553 -> [\d,]+ tokens \(-[\d.]+%\), \d+ pieces saved under ~\/home\/removed; limit not reached\nrecover one: ollm recover [0-9a-f]{12}( \(also .*\))?\n$/,
    );
    const output = parseTranscript(fromStdin.stdout, { file: 'stdout' });
    expect(output.format).toBe('swe-agent');
    expect(tokens.countMessages(output.conversations[0]!.messages)).toBeLessThan(18_553);
  });

  it('--out - writes the transcript to stdout and keeps the summary on stderr, for a file too', async () => {
    const run = await compact([sweAgentFixture, '--provider', 'placeholder', '--limit', '9000', '--out', '-']);
    expect(run.code, run.stderr).toBe(0);
    expect(parseTranscript(run.stdout, { file: 'stdout' }).format).toBe('swe-agent');
    expect(run.stderr).toMatch(/^placeholder: 18,553 -> .*limit not reached\nrecover one: ollm recover [0-9a-f]{12}.*\n$/);
    expect(run.stderr).not.toContain('wrote');
  });

  it('--format applies to stdin, and a wrong one is reported under <stdin>', async () => {
    const named = await compact(['-', '--provider', 'identity', '--format', 'swe-agent'], readFileSync(sweAgentFixture));
    expect(named.code, named.stderr).toBe(0);
    expect(parseTranscript(named.stdout, { file: 'stdout' }).format).toBe('swe-agent');
    const wrong = await compact(['-', '--provider', 'identity', '--format', 'tau-bench'], readFileSync(sweAgentFixture));
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^ollm: <stdin>: /);
    expect(wrong.stdout).toBe('');
  });

  it('bad JSON on stdin: exit 2 naming <stdin> with line and column, nothing on stdout', async () => {
    const run = await compact(['-', '--provider', 'identity'], BROKEN_JSON);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^ollm: <stdin>: line 3, column 24: .+\n$/);
    expect(run.stdout).toBe('');
  });

  it('bad UTF-8 on stdin is named by its byte offset, as in a file', async () => {
    const run = await compact(
      ['-', '--provider', 'identity'],
      Buffer.concat([Buffer.from('[{"role": "user", "content": "h'), Buffer.from([0xe9]), Buffer.from('"}]')]),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('ollm: <stdin>: byte 31: the file is not valid UTF-8\n');
  });

  it('--json with stdin and no --out is the dry run it is for a file: the report on stdout names <stdin>', async () => {
    const run = await compact(['-', '--provider', 'placeholder', '--limit', '9000', '--json'], readFileSync(sweAgentFixture));
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { file: string; out: string | null; format: string; tokensAfter: number; tokensBefore: number };
    expect(report).toMatchObject({ file: '<stdin>', out: null, format: 'swe-agent', tokensBefore: 18_553 });
    expect(report.tokensAfter).toBeLessThan(report.tokensBefore);
  });

  it('refuses --in-place with - (exit 2) before reading stdin', async () => {
    const stdin = countingInput([readFileSync(sweAgentFixture)]);
    const run = await compact(['-', '--provider', 'identity', '--in-place', '--out', join(folder.path, 'out.json')], stdin.input);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('ollm: --in-place replaces the input file, and - reads stdin: write the result with --out FILE, or to stdout.\n');
    expect(run.stdout).toBe('');
    expect(stdin.pulled()).toBe(0);
  });

  it('refuses --json with --out - (exit 2): stdout holds the transcript', async () => {
    const run = await compact([sweAgentFixture, '--provider', 'identity', '--json', '--out', '-']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^ollm: --json with --out -: stdout holds the transcript.*Use --out FILE --json/);
    expect(run.stdout).toBe('');
  });

  it('stops reading stdin right past the 512 MiB limit, with exit 2 and nothing on stdout', async () => {
    // One 1 MiB buffer over and over: an endless stream that costs no memory unless the reader keeps copies.
    const mebibyte = Buffer.alloc(2 ** 20, 0x20);
    const endless = function* (): Generator<Uint8Array> {
      for (;;) yield mebibyte;
    };
    const stdin = countingInput(endless());
    const run = await compact(['-', '--provider', 'identity'], stdin.input);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('ollm: <stdin>: input size: over the 512 MiB limit for one transcript (reading stopped there)\n');
    expect(run.stdout).toBe('');
    // 512 MiB less 24 bytes is the limit: the 512th mebibyte passes it, and the stream is closed there.
    expect(stdin.pulled()).toBe(512);
    expect(stdin.closed()).toBe(true);
  });
});

describe.skipIf(!fixturesPresent)('ollm compact --base-url', () => {
  let server: FakeModelServer;
  let folder: ReturnType<typeof temporaryFolder>;
  beforeAll(async () => {
    server = await startFakeModelServer();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(async () => {
    folder = temporaryFolder();
    await server.reset();
  });
  afterEach(() => folder.remove());

  const compact = (...flags: string[]) =>
    runOllm(['compact', sweAgentFixture, '--provider', 'summarize', '--model', 'fake-llama:8b', '--limit', '40%', '--json', ...flags], {
      cwd: folder.path,
      env: { OLLM_HOME: join(folder.path, 'home'), HOME: folder.path },
    });

  it('--base-url without --api means --api openai, as in the chat; --api ollama keeps Ollama (the URL unused)', async () => {
    const run = await compact('--base-url', `${server.url}/v1`);
    expect(run.code, run.stderr).toBe(0);
    const paths = chatRequests(server).map((request) => request.path);
    expect(paths.length).toBeGreaterThan(0);
    expect(new Set(paths)).toEqual(new Set(['/v1/chat/completions']));
    expect(chatRequests(server)[0]!.model).toBe('fake-llama:8b');

    await server.reset();
    const ollama = await compact('--api', 'ollama', '--host', server.url, '--base-url', 'http://127.0.0.1:9/v1');
    expect(ollama.code, ollama.stderr).toBe(0);
    expect(new Set(chatRequests(server).map((request) => request.path))).toEqual(new Set(['/api/chat']));
  });
});

interface PipedRun {
  readonly code: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** The built binary with `input` written to its stdin, run to the end. */
function pipeThroughBinary(args: readonly string[], input: Uint8Array | string, cwd: string, env: Record<string, string>): Promise<PipedRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binaryPath, ...args], { cwd, env: { PATH: process.env['PATH'], ...env }, stdio: 'pipe' });
    const stdout: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // The binary may refuse before reading: its closed stdin is no failure of the test.
    child.stdin.on('error', () => undefined);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(stdout), stderr }));
    child.stdin.end(input);
  });
}

describe.skipIf(!binaryBuilt || !fixturesPresent)('ollm compact as a filter (the built binary)', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let env: Record<string, string>;
  beforeEach(() => {
    folder = temporaryFolder();
    env = { OLLM_HOME: join(folder.path, 'home'), HOME: folder.path };
  });
  afterEach(() => folder.remove());

  it('cat run.traj.json | ollm compact - --limit 50% --out -: a smaller transcript of the same format on stdout, the report on stderr', async () => {
    const run = await pipeThroughBinary(['compact', '-', '--limit', '50%', '--out', '-'], readFileSync(sweAgentFixture), folder.path, env);
    expect(run.code, run.stderr).toBe(0);
    const output = parseTranscript(run.stdout.toString('utf8'), { file: 'stdout' });
    const input = await readTranscript(sweAgentFixture);
    expect(output.format).toBe(input.format);
    expect(output.conversations).toHaveLength(1);
    const before = tokens.countMessages(input.conversations[0]!.messages);
    const after = tokens.countMessages(output.conversations[0]!.messages);
    expect(after).toBeLessThan(before);
    expect(run.stdout.length).toBeLessThan(readFileSync(sweAgentFixture).length);
    expect(run.stderr).toMatch(
      new RegExp(
        `^fold: 18,553 -> ${after.toLocaleString('en-US')} tokens \\(-[\\d.]+%\\), \\d+ pieces saved under ~/home/removed\\nrecover one: ollm recover [0-9a-f]{12}.*\\n$`,
      ),
    );
  });

  it('bad JSON on stdin: exit 2 naming <stdin> with line and column, nothing on stdout', async () => {
    const run = await pipeThroughBinary(['compact', '-', '--out', '-'], BROKEN_JSON, folder.path, env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^ollm: <stdin>: line 3, column 24: .+\n$/);
    expect(run.stdout.length).toBe(0);
  });

  it('--in-place with - is refused with exit 2', async () => {
    const run = await pipeThroughBinary(['compact', '-', '--in-place', '--out', 'small.json'], readFileSync(sweAgentFixture), folder.path, env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^ollm: --in-place replaces the input file, and - reads stdin/);
    expect(run.stdout.length).toBe(0);
  });
});
