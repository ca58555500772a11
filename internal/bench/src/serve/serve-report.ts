import type { MachineDescription } from '../machine.js';
import type { LatencyCase } from './latency-workload.js';
import type { ThroughputCase } from './throughput-workload.js';

/** Every figure of the serve section of one run: `ollm serve` in front of the fake model server. */
export interface ServeReport {
  readonly date: string;
  readonly durationSeconds: number;
  /** The section is recorded on its own too (record-docs --only serve): it names its machine. */
  readonly machine: MachineDescription;
  readonly model: string;
  readonly window: number;
  readonly replyLimit: number;
  readonly pipeline: string;
  /** Untimed turns of one conversation per client before the latency cases. */
  readonly warmUpTurns: number;
  /** Conversations that fit the window (`turns` each), then conversations growing until the proxy compacts. */
  readonly short: readonly LatencyCase[];
  readonly long: readonly LatencyCase[];
  readonly throughput: {
    readonly concurrency: number;
    readonly turns: number;
    readonly rounds: number;
    /** Turns of the untimed round per target first. */
    readonly warmUpTurns: number;
    readonly cases: readonly ThroughputCase[];
  };
}
