import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPOSITORY_ROOT } from '../fixture-set.js';
import { CLI_BINARY } from './cli-startup-workload.js';
import type { HostileInput } from './hostile-inputs.js';
import { runMeasuredNode } from './measured-process.js';

const COUNT_SCRIPT = join(REPOSITORY_ROOT, 'internal', 'bench', 'dist', 'speed', 'hostile-count.js');

/** What is run on each hostile input, each in a process of its own. */
export const HOSTILE_TOOLS = ['token count', 'ollm stats', 'ollm compact --provider trim', 'ollm compact (default provider)'] as const;
export type HostileTool = (typeof HOSTILE_TOOLS)[number];

export interface HostileRun {
  readonly input: string;
  readonly tool: HostileTool;
  readonly wallMs?: number;
  readonly exitCode?: number | null;
  readonly timedOut?: boolean;
  readonly maxRssMegabytes?: number;
  /** The token count (token count, ollm stats) or tokens after (compact), when it finished. */
  readonly tokens?: number;
  /** token count: the counting alone, inside the process. */
  readonly countMs?: number;
  readonly skipped?: string;
  readonly error?: string;
}

export interface HostileInputReport {
  readonly timeoutSeconds: number;
  readonly inputs: readonly { readonly name: string; readonly description: string; readonly fileMegabytes: number }[];
  readonly runs: readonly HostileRun[];
}

function argumentsFor(tool: HostileTool, file: string, logdir: string): string[] {
  if (tool === 'token count') return [COUNT_SCRIPT, file];
  if (tool === 'ollm stats') return [CLI_BINARY, 'stats', file, '--json'];
  const provider = tool === 'ollm compact --provider trim' ? ['--provider', 'trim'] : [];
  return [CLI_BINARY, 'compact', file, ...provider, '--limit', '50%', '--json', '--logdir', logdir];
}

/** Tokens from each tool's JSON output, when it has them. */
function tokensOf(tool: HostileTool, stdout: string): { tokens?: number; countMs?: number } {
  try {
    // The probe prints one line; the CLI prints indented JSON.
    const output = JSON.parse(tool === 'token count' ? (stdout.trim().split('\n').pop() ?? '') : stdout) as Record<string, unknown>;
    if (tool === 'token count') return { tokens: output['tokens'] as number, countMs: output['countMs'] as number };
    const tokens = tool === 'ollm stats' ? (output['total'] as { totalTokens?: unknown } | undefined)?.totalTokens : output['tokensAfter'];
    return typeof tokens === 'number' ? { tokens } : {};
  } catch {
    return {};
  }
}

/**
 * Each hostile input through each tool: wall time, peak RSS and exit, in a child process with a
 * time limit. Repeated-character inputs go smallest first; a tool that timed out on one is not
 * run on the larger ones.
 */
export function measureHostileInputs(
  inputs: readonly HostileInput[],
  timeoutSeconds: number,
  onRun?: (input: string, tool: string) => void,
): HostileInputReport {
  const folder = mkdtempSync(join(tmpdir(), 'ollm-bench-hostile-'));
  const runs: HostileRun[] = [];
  const written: HostileInputReport['inputs'][number][] = [];
  try {
    const timedOutOn = new Map<HostileTool, string>();
    const ordered = [...inputs].sort((a, b) => (a.kind === b.kind ? a.size - b.size : a.kind === 'repeated' ? -1 : 1));
    for (const input of ordered) {
      const file = join(folder, `${input.name}.json`);
      writeFileSync(file, JSON.stringify(input.messages));
      written.push({ name: input.name, description: input.description, fileMegabytes: statSync(file).size / 2 ** 20 });
      for (const tool of HOSTILE_TOOLS) {
        const earlier = input.kind === 'repeated' ? timedOutOn.get(tool) : undefined;
        if (earlier) {
          runs.push({ input: input.name, tool, skipped: `timed out on ${earlier}` });
          continue;
        }
        onRun?.(input.name, tool);
        const logdir = join(folder, `logdir-${input.name}-${runs.length}`);
        const run = runMeasuredNode(argumentsFor(tool, file, logdir), {
          cwd: folder,
          env: { ...process.env, OLLM_HOME: join(folder, 'home'), NO_COLOR: '1' },
          timeoutSeconds,
        });
        if (run.timedOut && input.kind === 'repeated') timedOutOn.set(tool, input.name);
        const failed = run.exitCode !== 0 && !run.timedOut;
        runs.push({
          input: input.name,
          tool,
          wallMs: run.wallMs,
          exitCode: run.exitCode,
          timedOut: run.timedOut,
          ...(run.maxRssMegabytes !== undefined ? { maxRssMegabytes: run.maxRssMegabytes } : {}),
          ...(run.exitCode === 0 ? tokensOf(tool, run.stdout) : {}),
          ...(failed ? { error: run.stderr.trim().split('\n').slice(-3).join(' ').slice(0, 300) } : {}),
        });
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return { timeoutSeconds, inputs: written, runs };
}
