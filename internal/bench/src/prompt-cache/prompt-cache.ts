/**
 * `node internal/bench/dist/prompt-cache/prompt-cache.js [--steps 40] [--windows 16384,32768] [--json]`
 *
 * How much of each prompt of a coding agent's loop a local server's prompt cache (KV cache) can
 * reuse from the prompt before, and the tokens it must process again: no compaction (the server
 * truncates), the agent's own compaction, and `ollm serve`. No model is called; the proxy is the
 * real one, in this process, in front of the fake model server.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatNumber, formatPercent, markdownTable } from '../markdown-table.js';
import { measurePromptCache, type PromptCacheReport } from './measure.js';

export function promptCacheTable(report: PromptCacheReport): string {
  const headers = [
    'window',
    'strategy',
    'requests (summaries)',
    'over the window',
    'rewrites',
    'shared prefix, median / mean',
    'tokens processed again (per request)',
    'summary tokens written',
    'marker kept',
  ];
  const rows = report.rows.map((row) => [
    formatNumber(row.window),
    row.strategy,
    `${row.requests}${row.summaryRequests > 0 ? ` (${row.summaryRequests})` : ''}`,
    String(row.overWindow),
    String(row.rewrites),
    `${formatPercent(row.sharedMedian)} / ${formatPercent(row.sharedMean)}`,
    `${formatNumber(row.processedAgain)} (${formatNumber(row.processedAgainPerRequest)})`,
    formatNumber(row.summaryTokensWritten),
    row.markerKept ? 'yes' : 'no',
  ]);
  return markdownTable(headers, rows, 'llrrrrrrl');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const { values } = parseArgs({
    args: args[0] === '--' ? args.slice(1) : args,
    options: {
      steps: { type: 'string', default: '40' },
      windows: { type: 'string', default: '16384,32768' },
      json: { type: 'boolean', default: false },
    },
  });
  const steps = Number(values.steps);
  if (!Number.isInteger(steps) || steps < 2) throw new Error(`--steps: "${values.steps}" is not a whole number of 2 or more`);
  const windows = values.windows.split(',').map((entry) => {
    const value = Number(entry.trim());
    if (!Number.isInteger(value) || value < 1024) throw new Error(`--windows: "${entry}" is not a window of 1,024 tokens or more`);
    return value;
  });
  const report = await measurePromptCache({
    steps,
    windows,
    onRow: (row) => process.stderr.write(`[prompt-cache] ${row.window} ${row.strategy}: shared ${formatPercent(row.sharedMean)} mean\n`),
  });
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 1)}\n` : `${promptCacheTable(report)}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await main();
  } catch (error) {
    process.stderr.write(`prompt-cache: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
