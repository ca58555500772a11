import type { CliStartupReport } from './cli-startup-workload.js';
import type { ProcessCase } from './process-workload.js';
import type { HostileInputReport } from './hostile-input-workload.js';
import type { InProcessCase } from './in-process-workload.js';
import type { LiveAgentCase } from './live-agent-workload.js';
import type { PinnedOverflowReport } from './pinned-overflow-workload.js';
import type { RuntimeTurnReport } from './runtime-turn-workload.js';
import type { ScalingPoint } from './scaling-workload.js';

/** The parts of the speed section; `--only` picks some. */
export const SPEED_PARTS = ['in-process', 'processes', 'live-agent', 'scaling', 'runtime', 'pinned', 'cli', 'hostile'] as const;
export type SpeedPart = (typeof SPEED_PARTS)[number];

/** Every figure of the speed section of one run (absent parts were not run). */
export interface SpeedReport {
  readonly budget: number;
  /** The SWE-agent transcripts timed (in-process, cold, live agent). */
  readonly conversations: readonly { readonly id: string; readonly tokens: number; readonly messages: number }[];
  readonly contenders: readonly { readonly name: string; readonly label: string; readonly family: string }[];
  readonly inProcess?: { readonly rounds: number; readonly costlyRounds: number; readonly cases: readonly InProcessCase[] };
  /** New processes: the cold first call, and the fresh one (warmed on another transcript). */
  readonly processes?: { readonly cases: readonly ProcessCase[] };
  readonly liveAgent?: { readonly rounds: number; readonly cases: readonly LiveAgentCase[] };
  readonly scaling?: { readonly capSeconds: number; readonly points: readonly ScalingPoint[] };
  readonly runtimeTurns?: RuntimeTurnReport;
  readonly pinnedOverflow?: PinnedOverflowReport;
  readonly cliStartup?: CliStartupReport;
  readonly hostile?: HostileInputReport;
}
