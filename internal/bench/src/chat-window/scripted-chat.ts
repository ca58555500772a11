import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

const STATUS_LINE = /^Context: [\d,]+\/[\d,]+ \((\d+)%\)/gm;

/** How to start `ollm`: its binary, and a module to preload (the docs recordings' fixed clock). */
export interface OllmLaunch {
  readonly binary: string;
  readonly preload?: string;
}

/** Node's arguments to run `ollm` with `args`. */
export function nodeArguments(launch: OllmLaunch, args: readonly string[]): string[] {
  return [...(launch.preload === undefined ? [] : ['--import', launch.preload]), launch.binary, ...args];
}

/** The `ollm` chat binary with piped stdin, driven line by line; reads its status lines. */
export class ScriptedChat {
  private stdout = '';
  private stderr = '';
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly exited: Promise<number | null>;
  private readonly listeners = new Set<() => void>();

  constructor(launch: OllmLaunch, args: readonly string[], env: Record<string, string>, cwd: string) {
    this.child = spawn(process.execPath, nodeArguments(launch, args), { cwd, env: { PATH: process.env['PATH'], ...env }, stdio: 'pipe' });
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => this.append(chunk, 'stdout'));
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => this.append(chunk, 'stderr'));
    this.exited = new Promise((resolve) => this.child.on('close', resolve));
  }

  send(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** The fullness the last status line showed, in percent. */
  lastFullness(): number | undefined {
    const matches = [...this.stdout.matchAll(STATUS_LINE)];
    const last = matches.at(-1);
    return last ? Number(last[1]) : undefined;
  }

  /** Resolves with everything printed since the previous call once `count` status lines were printed in all. */
  waitForStatusLines(count: number): Promise<string> {
    const from = this.stdout.length + this.stderr.length;
    return new Promise((resolve, reject) => {
      const check = () => {
        if ([...this.stdout.matchAll(STATUS_LINE)].length < count) return;
        this.listeners.delete(check);
        resolve((this.stdout + this.stderr).slice(from));
      };
      this.listeners.add(check);
      check();
      void this.exited.then(() => {
        if (this.listeners.delete(check))
          reject(new Error(`ollm ended before its status line ${count}:\n${this.stdout.slice(-2000)}\n${this.stderr.slice(-2000)}`));
      });
    });
  }

  /** How often `pattern` (global) occurs in what was printed on stderr so far. */
  countInStderr(pattern: RegExp): number {
    return [...this.stderr.matchAll(pattern)].length;
  }

  async end(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }

  private append(chunk: string, stream: 'stdout' | 'stderr'): void {
    this[stream] += chunk;
    for (const listener of [...this.listeners]) listener();
  }
}
