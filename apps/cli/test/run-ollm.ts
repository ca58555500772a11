import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProviderRegistry } from '@ollm/runtime';
import { runCli } from '../src/run-cli.js';

export interface OllmRun {
  readonly code: number;
  readonly stdout: string;
  readonly stdoutBytes: Buffer;
  readonly stderr: string;
}

export interface RunOptions {
  readonly cwd?: string;
  readonly env?: Record<string, string | undefined>;
  readonly registry?: ProviderRegistry;
  readonly isTTY?: boolean;
  readonly signal?: AbortSignal;
  /** What `-` reads (`ollm compact -`): text or bytes, or a stream of chunks. */
  readonly stdin?: string | Uint8Array | AsyncIterable<Uint8Array | string>;
}

async function* once(chunk: string | Uint8Array): AsyncGenerator<string | Uint8Array> {
  yield chunk;
}

/** Runs `ollm argv` in-process and captures what it printed. */
export async function runOllm(argv: readonly string[], options: RunOptions = {}): Promise<OllmRun> {
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  const capture = (chunks: Buffer[]) => ({
    write: (chunk: string | Uint8Array) => chunks.push(Buffer.from(chunk)),
  });
  const code = await runCli(
    argv,
    {
      stdout: capture(stdout),
      stderr: capture(stderr),
      cwd: options.cwd ?? process.cwd(),
      env: options.env ?? {},
      isTTY: options.isTTY ?? false,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.stdin === undefined
        ? {}
        : { stdin: typeof options.stdin === 'string' || options.stdin instanceof Uint8Array ? once(options.stdin) : options.stdin }),
    },
    options.registry ? { registry: options.registry } : {},
  );
  const stdoutBytes = Buffer.concat(stdout);
  return { code, stdout: stdoutBytes.toString('utf8'), stdoutBytes, stderr: Buffer.concat(stderr).toString('utf8') };
}

/** A fresh temporary folder, removed by the returned cleanup. */
export function temporaryFolder(): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'ollm-cli-test-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
