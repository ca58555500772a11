import { cpus, loadavg, platform, arch, totalmem } from 'node:os';

export interface MachineDescription {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGibibytes: number;
  readonly node: string;
  readonly platform: string;
  /** 1, 5 and 15 minute load averages: the machine is shared, so this says how quiet it was. */
  readonly loadAverage: readonly number[];
}

export function describeMachine(): MachineDescription {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown CPU',
    cores: list.length,
    memoryGibibytes: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${platform()}/${arch()}`,
    loadAverage: loadavg().map((value) => Math.round(value * 100) / 100),
  };
}
