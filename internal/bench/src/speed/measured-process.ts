import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** One child process: wall time, exit, peak memory when the machine can say. */
export interface MeasuredProcess {
  readonly wallMs: number;
  readonly exitCode: number | null;
  /** Killed at the time limit. */
  readonly timedOut: boolean;
  /** Peak resident set size (GNU time's "Maximum resident set size"). */
  readonly maxRssMegabytes?: number;
  readonly stdout: string;
  /** The child's own stderr (GNU time's report taken out). */
  readonly stderr: string;
}

export interface MeasuredProcessOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutSeconds: number;
}

const GNU_TIME = '/usr/bin/time';
const TIMEOUT = '/usr/bin/timeout';

/** Where GNU time's `-v` report starts in stderr. */
const TIME_REPORT = /\n?\s*Command (?:being timed|exited with non-zero status|terminated by signal)[\s\S]*$/;

/**
 * Runs `node ARGS` under `/usr/bin/time -v` (peak RSS as the kernel measured it) and
 * `timeout -s KILL` (a hostile input must not hang the bench); either is left out where missing.
 */
export function runMeasuredNode(args: readonly string[], options: MeasuredProcessOptions): MeasuredProcess {
  const command = [process.execPath, ...args];
  const limited = existsSync(TIMEOUT) ? [TIMEOUT, '-s', 'KILL', String(options.timeoutSeconds), ...command] : command;
  const timed = existsSync(GNU_TIME) ? [GNU_TIME, '-v', ...limited] : limited;
  const started = process.hrtime.bigint();
  const run = spawnSync(timed[0]!, timed.slice(1), {
    cwd: options.cwd,
    env: options.env,
    encoding: 'utf8',
    maxBuffer: 512 * 2 ** 20,
    // A backstop for machines without `timeout`.
    timeout: (options.timeoutSeconds + 30) * 1000,
    killSignal: 'SIGKILL',
  });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const stderr = run.stderr ?? '';
  const kilobytes = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1];
  // timeout exits 137 (128 + KILL) when it killed the command; spawnSync's own limit gives a signal.
  const timedOut = run.status === 137 || run.status === 124 || run.signal === 'SIGKILL' || wallMs >= options.timeoutSeconds * 1000;
  return {
    wallMs,
    exitCode: run.status,
    timedOut,
    ...(kilobytes ? { maxRssMegabytes: Number(kilobytes) / 1024 } : {}),
    stdout: run.stdout ?? '',
    stderr: stderr.replace(TIME_REPORT, ''),
  };
}
