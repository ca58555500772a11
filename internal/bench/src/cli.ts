/**
 * `pnpm bench` (full: bench/results/latest.json, docs/benchmarks.md, docs/benchmarks-tradeoff.svg)
 * and `pnpm bench --quick` (CI's smoke run: bench/results/quick.json, quick.md, quick-tradeoff.svg).
 * Options: `--fixtures DIR` (default ../shared/fixtures when it exists, else fixtures/).
 */
import { parseArgs } from 'node:util';
import { FULL_MODE, QUICK_MODE } from './bench-mode.js';
import { progress, runBench, writeReport } from './run-bench.js';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, fixtures: { type: 'string' } } });
  const report = await runBench(values.quick ? QUICK_MODE : FULL_MODE, values.fixtures);
  const files = writeReport(report);
  progress(`done in ${report.durationSeconds.toFixed(0)} s: ${Object.values(files).join(', ')}`);
}

await main();
