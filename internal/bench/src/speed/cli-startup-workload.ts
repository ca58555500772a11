import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPOSITORY_ROOT } from '../fixture-set.js';
import { median } from '../measure.js';
import { interleavedOrder } from './interleaved-order.js';

export const CLI_BINARY = join(REPOSITORY_ROOT, 'apps', 'cli', 'dist', 'bin.js');

/** One command line, timed as a whole new process each run. */
export interface CliCommandTiming {
  /** `node -e 0`, `ollm --help`, `ollm compact --provider trim` … */
  readonly name: string;
  readonly medianWallMs: number;
  readonly samples: readonly number[];
  readonly exitCodes: readonly (number | null)[];
  /** `ollm compact --json`: the median `timeMs` it reported (counting the conversation, `compactWith`, the source digest). */
  readonly reportedMs?: number;
  /** The provider the report names (the default when no --provider was given). */
  readonly provider?: string;
  readonly error?: string;
}

export interface CliStartupReport {
  readonly transcript: string;
  readonly tokens: number;
  readonly rounds: number;
  readonly commands: readonly CliCommandTiming[];
}

interface CliCommand {
  readonly name: string;
  /** Arguments to `node`; `logdir` is a new folder each run. */
  readonly args: (logdir: string) => string[];
  readonly compact: boolean;
}

export const NODE_BASELINE = 'node -e 0';
export const CLI_HELP = 'ollm --help';
/** The transcript read and counted, nothing compacted: what every `ollm compact` does before its compaction. */
export const CLI_STATS = 'ollm stats --json';
/** `ollm compact` of the transcript with `provider`, or the CLI's default provider when undefined. */
export function compactCommandName(provider: string | undefined): string {
  return provider === undefined ? 'ollm compact (default provider)' : `ollm compact --provider ${provider}`;
}

function commands(transcript: string, providers: readonly (string | undefined)[]): CliCommand[] {
  return [
    { name: NODE_BASELINE, args: () => ['-e', '0'], compact: false },
    { name: CLI_HELP, args: () => [CLI_BINARY, '--help'], compact: false },
    { name: CLI_STATS, args: () => [CLI_BINARY, 'stats', transcript, '--json'], compact: false },
    ...providers.map((provider): CliCommand => ({
      name: compactCommandName(provider),
      args: (logdir) => [CLI_BINARY, 'compact', transcript, ...(provider ? ['--provider', provider] : []), '--limit', '50%', '--json', '--logdir', logdir],
      compact: true,
    })),
  ];
}

/**
 * `node -e 0`, `ollm --help` and `ollm compact --json` of one transcript (dry run: no --out) with
 * each provider, every run a new process, interleaved over `rounds` rounds after one untimed round
 * (the files in the page cache). `ollm compact --json` reports its own compaction time.
 */
export function measureCliStartup(
  transcript: { readonly id: string; readonly path: string; readonly tokens: number },
  providers: readonly (string | undefined)[],
  rounds: number,
): CliStartupReport {
  const list = commands(transcript.path, providers);
  if (!existsSync(CLI_BINARY)) {
    const error = `${CLI_BINARY} is not built (pnpm build --filter @ollm/cli)`;
    return {
      transcript: transcript.id,
      tokens: transcript.tokens,
      rounds,
      commands: list.map((command) => ({ name: command.name, medianWallMs: Number.NaN, samples: [], exitCodes: [], error })),
    };
  }
  const root = mkdtempSync(join(tmpdir(), 'ollm-bench-startup-'));
  const results = list.map(() => ({
    samples: [] as number[],
    exitCodes: [] as (number | null)[],
    reported: [] as number[],
    provider: undefined as string | undefined,
    error: undefined as string | undefined,
  }));
  try {
    const environment = { ...process.env, OLLM_HOME: join(root, 'home'), NO_COLOR: '1' };
    let run = 0;
    const once = (index: number, timed: boolean) => {
      const command = list[index]!;
      const logdir = join(root, `logdir-${(run += 1)}`);
      const started = process.hrtime.bigint();
      const child = spawnSync(process.execPath, command.args(logdir), {
        cwd: root,
        env: environment,
        encoding: 'utf8',
        maxBuffer: 64 * 2 ** 20,
        timeout: 120_000,
      });
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      const result = results[index]!;
      if (child.status !== 0 && result.error === undefined) result.error = `exit ${child.status}: ${(child.stderr ?? '').trim().slice(-300)}`;
      if (!timed) return;
      result.samples.push(wallMs);
      result.exitCodes.push(child.status);
      if (command.compact && child.status === 0) {
        const report = JSON.parse(child.stdout) as { timeMs?: number; provider?: string };
        if (typeof report.timeMs === 'number') result.reported.push(report.timeMs);
        result.provider = report.provider;
      }
    };
    for (let index = 0; index < list.length; index += 1) once(index, false);
    for (let round = 0; round < rounds; round += 1) for (const index of interleavedOrder(list.length, round)) once(index, true);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return {
    transcript: transcript.id,
    tokens: transcript.tokens,
    rounds,
    commands: list.map((command, index) => {
      const result = results[index]!;
      return {
        name: command.name,
        medianWallMs: median(result.samples),
        samples: result.samples,
        exitCodes: result.exitCodes,
        ...(result.reported.length > 0 ? { reportedMs: median(result.reported) } : {}),
        ...(result.provider !== undefined ? { provider: result.provider } : {}),
        ...(result.error !== undefined ? { error: result.error } : {}),
      };
    }),
  };
}
