import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const binaryPath = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
export const binaryBuilt = existsSync(binaryPath);

export interface BinaryRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The real `ollm` binary with piped stdin, driven line by line. Asynchronous on purpose: the fake
 * model server runs in the test's own process and must keep answering while the binary runs.
 */
export class ChatDriver {
  stdout = '';
  stderr = '';
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly exited: Promise<number | null>;
  private readonly listeners = new Set<() => void>();

  constructor(args: readonly string[], env: Record<string, string | undefined>, cwd: string) {
    this.child = spawn(process.execPath, [binaryPath, ...args], { cwd, env: { PATH: process.env['PATH'], ...env }, stdio: 'pipe' });
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => this.append('stdout', chunk));
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => this.append('stderr', chunk));
    this.exited = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
  }

  send(...lines: string[]): void {
    this.child.stdin.write(lines.map((line) => `${line}\n`).join(''));
  }

  /** Resolves with the match once stdout matches `pattern`; rejects with what was printed if the binary ends first. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(this.stdout);
        if (match) {
          this.listeners.delete(check);
          resolve(match);
        }
      };
      this.listeners.add(check);
      check();
      void this.exited.then(() => {
        if (this.listeners.delete(check)) reject(new Error(`ollm ended before printing ${pattern}:\n${this.stdout}\n${this.stderr}`));
      });
    });
  }

  interrupt(): void {
    this.child.kill('SIGINT');
  }

  /** Sends SIGTERM (a service manager, `kill`) and waits for the exit. */
  async terminate(): Promise<BinaryRun> {
    this.child.kill('SIGTERM');
    const code = await this.exited;
    return { code, stdout: this.stdout, stderr: this.stderr };
  }

  async end(): Promise<BinaryRun> {
    this.child.stdin.end();
    const code = await this.exited;
    return { code, stdout: this.stdout, stderr: this.stderr };
  }

  private append(stream: 'stdout' | 'stderr', chunk: string): void {
    this[stream] += chunk;
    for (const listener of [...this.listeners]) listener();
  }
}

/** Runs the binary to completion with `input` on stdin. */
export async function runBinary(args: readonly string[], env: Record<string, string | undefined>, cwd: string, input = ''): Promise<BinaryRun> {
  const driver = new ChatDriver(args, env, cwd);
  if (input) driver.send(input.replace(/\n$/, ''));
  return driver.end();
}
