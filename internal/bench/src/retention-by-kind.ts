import type { CompactionCase } from './compaction-workload.js';
import type { FixtureKind } from './fixture-set.js';
import { formatPercent, markdownTable } from './markdown-table.js';

/** Pooled retention per probe kind: which facts each strategy loses, for one dataset and target. */
export function retentionByKindTable(cases: readonly CompactionCase[], kind: FixtureKind, target: number): string | undefined {
  const selected = cases.filter((entry) => entry.kind === kind && entry.target === target);
  const probeKinds = [...new Set(selected.flatMap((entry) => Object.keys(entry.probesAvailableByKind)))];
  if (probeKinds.length === 0) return undefined;
  const strategies = [...new Set(selected.map((entry) => entry.strategy))];
  const rows = strategies.map((strategy) => {
    const ofStrategy = selected.filter((entry) => entry.strategy === strategy);
    return [
      strategy,
      ...probeKinds.map((probeKind) => {
        const available = ofStrategy.reduce((sum, entry) => sum + (entry.probesAvailableByKind[probeKind] ?? 0), 0);
        const lost = ofStrategy.reduce((sum, entry) => sum + entry.lostProbes.filter((probe) => probe.startsWith(`${probeKind}:`)).length, 0);
        return available === 0 ? '—' : formatPercent((available - lost) / available, 1);
      }),
    ];
  });
  const totals = probeKinds.map((probeKind) => {
    const first = strategies[0];
    return selected.filter((entry) => entry.strategy === first).reduce((sum, entry) => sum + (entry.probesAvailableByKind[probeKind] ?? 0), 0);
  });
  return markdownTable(['strategy', ...probeKinds.map((probeKind, index) => `${probeKind} (${totals[index]})`)], rows, `l${'r'.repeat(probeKinds.length)}`);
}
