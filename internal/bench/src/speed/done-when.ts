import { compactCommandName } from './cli-startup-workload.js';
import { meetsTarget, type RatioTarget } from './ratio.js';
import { incrementalName } from './live-agent-workload.js';
import { cliRatios, helpRatio, inProcessRatio, liveRatio, processRatio } from './speed-summary.js';
import type { SpeedReport } from './speed-report.js';

/** One line of issue 15's "Done when", with what this run measured. */
export interface DoneWhenRow {
  readonly criterion: string;
  readonly target: RatioTarget;
  readonly measured?: number;
  /** Undefined when the run did not measure it. */
  readonly met?: boolean;
}

const PIPELINE = 'mask,code-aware,trim';
const LANGCHAIN_CACHED = 'langchain-cached';

function row(criterion: string, target: RatioTarget, measured: number | undefined): DoneWhenRow {
  const met = meetsTarget(measured, target);
  return { criterion, target, ...(measured !== undefined ? { measured } : {}), ...(met !== undefined ? { met } : {}) };
}

/** Issue 15's targets against this run's ratios (each a ratio of runs made side by side in this run). */
export function doneWhenRows(speed: SpeedReport): DoneWhenRow[] {
  const rows: DoneWhenRow[] = [];
  const inProcess = speed.inProcess?.cases ?? [];
  const atMost = (value: number): RatioTarget => ({ comparison: 'at-most', value });
  rows.push(row('Warm: trim / LangChain `trimMessages` (cached counter)', atMost(3), inProcessRatio(inProcess, 'warm', 'trim', LANGCHAIN_CACHED)));
  rows.push(row(`Warm: ${PIPELINE} / LangChain (cached counter)`, atMost(5), inProcessRatio(inProcess, 'warm', PIPELINE, LANGCHAIN_CACHED)));
  rows.push(row('Warm: fold (the default) / LangChain (cached counter)', atMost(5), inProcessRatio(inProcess, 'warm', 'fold', LANGCHAIN_CACHED)));
  const live = speed.liveAgent?.cases ?? [];
  // The incremental path is what a live agent runs (the proxy, the middlewares): the work follows the new turn.
  for (const name of ['trim', PIPELINE, 'fold']) {
    rows.push(
      row(
        `Live agent: ${incrementalName(name)} after one more turn / LangChain (cached counter) on the whole conversation`,
        { comparison: 'below', value: 1 },
        liveRatio(live, incrementalName(name)),
      ),
    );
  }
  // Fresh: a conversation no cache has seen, in a process that has run the code (new processes of kind `fresh`).
  const processes = speed.processes?.cases ?? [];
  for (const name of ['trim', PIPELINE, 'fold']) {
    rows.push(
      row(`Fresh counter: ${name} / the floor (a new process, warmed on another transcript)`, atMost(1.2), processRatio(processes, 'fresh', name, 'floor')),
    );
  }
  const cli = speed.cliStartup ? cliRatios(speed.cliStartup) : [];
  for (const [name, label] of [
    [compactCommandName('trim'), 'trim'],
    [compactCommandName(undefined), 'the default provider'],
  ] as const) {
    const entry = cli.find((candidate) => candidate.name === name);
    const provider = entry?.provider && label !== 'trim' ? ` (${entry.provider})` : '';
    rows.push(
      row(
        `\`ollm compact\` of the largest transcript, ${label}${provider} / (\`node -e 0\` + the compaction time it reports)`,
        atMost(1.5),
        entry?.overNodeAndCompaction,
      ),
    );
  }
  rows.push(row('`ollm --help` / `node -e 0`', atMost(1.5), speed.cliStartup ? helpRatio(speed.cliStartup) : undefined));
  const runtime = speed.runtimeTurns;
  const sizes = runtime
    ? `${runtime.sizes[runtime.sizes.length - 1]!.activeMessages.toLocaleString('en-US')} / ${runtime.sizes[0]!.activeMessages.toLocaleString('en-US')}`
    : '100,000 / 100';
  rows.push(row(`Runtime compression check per turn, ${sizes} active messages`, atMost(2), runtime?.checkRatio));
  return rows;
}
