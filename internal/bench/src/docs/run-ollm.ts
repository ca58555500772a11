import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The preload that fixes the clock and the random ids of the binary (see fixed-clock.ts). */
export const FIXED_CLOCK = fileURLToPath(new URL('./fixed-clock.js', import.meta.url));
export const REPOSITORY = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * Where the throwaway user lives. Always the same path: placeholders that name where removed
 * content was saved are part of what providers count, so a path of another length gives other
 * token counts (a random temporary folder made `ollm compact` vary by a few hundred tokens).
 */
const DEMO_ROOT = process.platform === 'win32' ? join(tmpdir(), 'ollm-docs') : '/tmp/ollm-docs';

/**
 * A throwaway user for the recordings: `HOME` is `/tmp/ollm-docs/home/me`, `OLLM_HOME` is
 * `~/.ollm`, the working folder is `~/work` with `fixtures` linked to the repository's. Printed
 * paths are shown with `/tmp/ollm-docs` removed, so they read `/home/me/...` and `~/.ollm/...`.
 * One at a time: creating one empties the folder.
 */
export class DemoUser {
  readonly root = DEMO_ROOT;
  readonly home = join(this.root, 'home', 'me');
  readonly ollmHome = join(this.home, '.ollm');
  readonly work = join(this.home, 'work');

  constructor() {
    rmSync(this.root, { recursive: true, force: true });
    mkdirSync(this.work, { recursive: true });
    symlinkSync(join(REPOSITORY, 'fixtures'), join(this.work, 'fixtures'), 'dir');
  }

  get env(): Record<string, string> {
    return { PATH: process.env['PATH'] ?? '', HOME: this.home, OLLM_HOME: this.ollmHome, NO_COLOR: '1', LANG: 'C.UTF-8' };
  }

  /** Output as a user at /home/me would see it. */
  clean(text: string): string {
    // The real path first: on macOS /tmp is /private/tmp, and the binary sees its cwd that way.
    return text.split(realpathSync(this.root)).join('').split(this.root).join('');
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

export interface OllmRun {
  /** stdout and stderr interleaved as written (one file for both). */
  readonly output: string;
  readonly exitCode: number | null;
}

/**
 * Runs the built binary to its end with the fixed clock, stdin closed, stdout and stderr into one
 * file, so the two streams keep the order they were written in.
 */
export async function runOllm(binary: string, args: readonly string[], user: DemoUser): Promise<OllmRun> {
  const chat = startOllm(binary, args, user);
  chat.end();
  const exitCode = await chat.exited;
  return { output: chat.output(), exitCode };
}

/** A running binary with piped stdin; its stdout and stderr go to one file, read while it runs. */
export interface RunningOllm {
  send(line: string): void;
  output(): string;
  /** Resolves with the output once `pattern` matches it (from `from` on); rejects if the process ends first. */
  waitFor(pattern: RegExp, from?: number, timeoutMs?: number): Promise<RegExpExecArray>;
  end(): void;
  readonly exited: Promise<number | null>;
}

let runs = 0;

export function startOllm(binary: string, args: readonly string[], user: DemoUser): RunningOllm {
  runs += 1;
  const file = join(user.root, `run-${runs}.out`);
  const descriptor = openSync(file, 'w');
  const child = spawn(process.execPath, ['--import', FIXED_CLOCK, binary, ...args], { cwd: user.work, env: user.env, stdio: ['pipe', descriptor, descriptor] });
  closeSync(descriptor);
  let ended = false;
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      ended = true;
      resolve(code);
    });
  });
  const output = () => readFileSync(file, 'utf8');
  return {
    send: (line) => child.stdin!.write(`${line}\n`),
    output,
    async waitFor(pattern, from = 0, timeoutMs = 30_000) {
      const started = performance.now();
      for (;;) {
        const match = pattern.exec(output().slice(from));
        if (match) return match;
        if (ended) throw new Error(`ollm ended before printing ${pattern}:\n${output().slice(-3000)}`);
        if (performance.now() - started > timeoutMs) throw new Error(`ollm did not print ${pattern} within ${timeoutMs} ms:\n${output().slice(-3000)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    end: () => child.stdin!.end(),
    exited,
  };
}
