/**
 * `pnpm bench` (full: bench/results/latest.json, docs/benchmarks.md, docs/benchmarks-tradeoff.svg,
 * docs/benchmarks-scaling.svg) and `pnpm bench --quick` (CI's smoke run: bench/results/quick.json,
 * quick.md, quick-tradeoff.svg, quick-scaling.svg).
 * Options: `--fixtures DIR` (default ../shared/fixtures when it exists, else fixtures/);
 * `--only speed` or `--only speed:PART,PART` (parts: in-process, processes, live-agent,
 * scaling, runtime, pinned, cli, hostile): only the speed section, written to
 * bench/results/partial.json, partial.md and partial-scaling.svg (docs/ untouched);
 * `--only serve`: only the serve section (`ollm serve` against the fake model server), written to
 * bench/results/partial.json and partial.md (docs/ untouched: record-docs --only serve refreshes it);
 * `--only middleware`: only the middleware section (the AI SDK's and LangChain's context middlewares
 * per agent step), written the same way (record-docs --only middleware refreshes its block);
 * `--from bench/results/latest.json`: measure nothing, render that report again (its mode decides
 * where: a full report rewrites docs/), for a change to the renderers. `--help` prints the usage.
 */
import { readFileSync } from 'node:fs';
import { BENCH_USAGE, parseBenchArguments } from './bench-arguments.js';
import type { BenchReport } from './bench-report.js';
import { FULL_MODE, QUICK_MODE } from './bench-mode.js';
import { progress, runBench, runMiddlewareOnly, runServeOnly, runSpeedOnly, writePartialReport, writeReport } from './run-bench.js';
import { parseOnly } from './speed/parse-only.js';

async function main(): Promise<void> {
  const parsed = parseBenchArguments(process.argv.slice(2));
  if ('help' in parsed) {
    process.stdout.write(BENCH_USAGE);
    return;
  }
  if ('error' in parsed) {
    process.stderr.write(`bench: ${parsed.error}\n\n${BENCH_USAGE}`);
    process.exit(2);
  }
  const values = parsed.arguments;
  if (values.from !== undefined) {
    const report = JSON.parse(readFileSync(values.from, 'utf8')) as BenchReport;
    if ((report.mode !== 'full' && report.mode !== 'quick') || !report.compaction) {
      process.stderr.write(`bench: ${values.from} is not a report of \`pnpm bench\` (full or quick)\n`);
      process.exit(2);
    }
    progress(`rendered again: ${Object.values(writeReport(report)).join(', ')}`);
    return;
  }
  const mode = values.quick ? QUICK_MODE : FULL_MODE;
  if (values.only !== undefined) {
    const selection = parseOnly(values.only);
    if (typeof selection === 'string') {
      process.stderr.write(`bench: ${selection}\n`);
      process.exit(2);
    }
    const report =
      selection.section === 'serve'
        ? await runServeOnly(mode)
        : selection.section === 'middleware'
          ? await runMiddlewareOnly(mode)
          : await runSpeedOnly(mode, selection.parts, values.fixtures);
    const files = writePartialReport(report);
    progress(`done in ${report.durationSeconds.toFixed(0)} s: ${Object.values(files).join(', ')}`);
    return;
  }
  const report = await runBench(mode, values.fixtures);
  const files = writeReport(report);
  progress(`done in ${report.durationSeconds.toFixed(0)} s: ${Object.values(files).join(', ')}`);
}

await main();
