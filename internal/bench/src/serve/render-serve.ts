import { formatMilliseconds, formatNumber, markdownTable } from '../markdown-table.js';
import { describeClient } from './chat-client.js';
import type { LatencyStatistics } from './latency-statistics.js';
import type { LatencyCase } from './latency-workload.js';
import type { ServeReport } from './serve-report.js';
import type { ThroughputCase, ThroughputTarget } from './throughput-workload.js';

/** The name of the block record-docs owns in docs/benchmarks.md (`<!-- recorded: serve -->`). */
export const SERVE_BLOCK = 'serve';

const ACTION_LABELS: Record<string, string> = {
  fits: 'fits (sent as it came)',
  reused: 'reused a cached compaction',
  compacted: 'compacted now',
  unread: 'not read (sent as it came)',
};

const TARGET_LABELS: Record<ThroughputTarget, string> = {
  direct: 'direct to the fake server',
  memory: 'ollm serve, memory store',
  files: 'ollm serve, file store',
};

/** Signed milliseconds: +1.35, -0.20. */
function signed(value: number): string {
  return `${value >= 0 ? '+' : '−'}${formatMilliseconds(Math.abs(value))}`;
}

function latencyCells(statistics: LatencyStatistics): string[] {
  return [
    formatNumber(statistics.requests),
    formatMilliseconds(statistics.directMedianMs),
    formatMilliseconds(statistics.directP95Ms),
    formatMilliseconds(statistics.proxiedMedianMs),
    formatMilliseconds(statistics.proxiedP95Ms),
    `**${signed(statistics.addedMedianMs)}**`,
    signed(statistics.addedP95Ms),
  ];
}

function latencyRows(cases: readonly LatencyCase[], conversation: string): string[][] {
  const rows: string[][] = [];
  for (const entry of cases) {
    const client = describeClient(entry.client);
    const split = entry.byAction.length > 1;
    rows.push([conversation, client, split ? 'all' : (ACTION_LABELS[entry.byAction[0]?.action ?? ''] ?? 'all'), ...latencyCells(entry.all)]);
    if (split)
      for (const { action, statistics } of entry.byAction) rows.push([conversation, client, ACTION_LABELS[action] ?? action, ...latencyCells(statistics)]);
  }
  return rows;
}

function actionsText(entry: ThroughputCase): string {
  const parts = Object.entries(entry.actions).map(([action, count]) => `${action} ${formatNumber(count)}`);
  return parts.length === 0 ? '—' : parts.join(', ');
}

function ratioTo(direct: ThroughputCase | undefined, entry: ThroughputCase): string {
  if (!direct || entry === direct) return '1';
  return `${formatNumber(entry.requestsPerSecond / direct.requestsPerSecond, 2)}x`;
}

/**
 * The content of the serve block: what is measured and where, the added latency per request and
 * the throughput tables. Every figure is a time, so each recording changes it.
 */
export function serveBlock(report: ServeReport): string {
  const { machine } = report;
  const shortTurns = report.short[0]?.turns ?? 0;
  const longTurns = report.long[0]?.turns ?? 0;
  const long = report.long;
  const largestDirect = Math.max(0, ...long.map((entry) => entry.upstream.largestDirectPrompt));
  const largestProxied = Math.max(0, ...[...report.short, ...long].map((entry) => entry.upstream.largestProxiedPrompt));
  const overWindow = [...report.short, ...long, ...report.throughput.cases].reduce((sum, entry) => sum + entry.upstream.proxiedOverWindow, 0);
  const proxied = [...report.short, ...long, ...report.throughput.cases].reduce((sum, entry) => sum + entry.upstream.proxiedChats, 0);
  const throughput = report.throughput;
  const direct = throughput.cases.find((entry) => entry.target === 'direct');
  const lines = [
    `\`ollm serve\` (\`startProxyServer\`, pipeline \`${report.pipeline}\`, memory store unless the row says otherwise) in front of \`@ollm/fake-model-server\` serving \`${report.model}\` (window ${formatNumber(report.window)}, learnt from \`/api/show\`); every request sets a reply limit of ${formatNumber(report.replyLimit)} tokens (\`max_tokens\` / \`num_predict\`) and declares one tool. ` +
      "The conversation is an agent's: each turn the user's question, the assistant's `read_file` call and its result (about 230 tokens of code, different in every turn and conversation, so no count is answered from another conversation's cache), then one request, whose reply is appended. " +
      `Each request is sent with the official \`openai\` or \`ollama\` client straight to the fake server and through the proxy, the same messages both ways, the order alternating turn by turn; a time is the client's call until the reply's last byte is read (streamed: until the stream ends). ` +
      '**added** is proxied − direct of each pair (median and 95th percentile of those differences, so drift that hits both is paired out). ' +
      `One untimed conversation of ${formatNumber(report.warmUpTurns)} turns per client runs first (code compiled, fold run once).`,
    '',
    `Client, proxy and fake server share this one Node process — one event loop, so their work adds up and never overlaps, and the throughput is the three together — on ${machine.cpu}, ${machine.cores} cores shared with other work, Node ${machine.node}; load average at the start ${machine.loadAverage.join(' / ')}. ` +
      `Measured ${report.date.slice(0, 10)} in ${formatNumber(report.durationSeconds)} s.`,
    '',
    '### Added latency per request (ms)',
    '',
    markdownTable(
      ['conversation', 'client', 'proxy action', 'requests', 'direct median', 'direct p95', 'proxied median', 'proxied p95', 'added median', 'added p95'],
      [...latencyRows(report.short, `${shortTurns} turns`), ...latencyRows(long, `growing to ${longTurns} turns`)],
      'lllrrrrrrr',
    ),
    '',
    `In the ${shortTurns}-turn conversations every request fits and the proxy reads, counts and forwards it. ` +
      `In the conversations growing to ${longTurns} turns the direct request carries the whole history (up to ${formatNumber(largestDirect)} tokens, which a ${formatNumber(report.window)}-token model would refuse; the fake server answers it anyway, so the direct column is the cost of moving that history, not a working alternative), ` +
      `the proxied one at most ${formatNumber(largestProxied)} tokens; ${formatNumber(overWindow)} of ${formatNumber(proxied)} proxied requests in this section were over the window. ` +
      "**reused**: the longest prefix an earlier request compacted stands in for the history (one store look-up, the new span counted); **compacted now**: the compacted prefix and the new span go through fold again. The rows by action are the same requests as the row **all**, split by the proxy's report (`onChat`'s `action`).",
    '',
    `### ${formatNumber(throughput.concurrency)} conversations at once`,
    '',
    `${formatNumber(throughput.concurrency)} conversations, each its own message list growing by ${formatNumber(throughput.turns)} turns (openai client, not streamed), each sending its next request when its last is answered: ${formatNumber(throughput.concurrency)} requests in flight. ` +
      `Direct requests carry each conversation's whole history (up to ${formatNumber(direct?.upstream.largestDirectPrompt ?? 0)} tokens, answered by the fake server though over the window); through the proxy, the requests that fit are sent as they came and the rest are made to fit, compacting on the same event loop that serves the other conversations. ` +
      `Requests per second = all requests / the time from the first sent to the last answered; median of ${formatNumber(throughput.rounds)} round${throughput.rounds === 1 ? '' : 's'} (each round runs direct and both stores once, the order rotating) after an untimed round of ${formatNumber(throughput.warmUpTurns)} turns each; request times are every request of every round.`,
    '',
    markdownTable(
      ['requests to', 'requests/s', 'vs direct', 'request median (ms)', 'request p95 (ms)', 'what the proxy did'],
      throughput.cases.map((entry) => [
        TARGET_LABELS[entry.target],
        `**${formatNumber(entry.requestsPerSecond, 1)}**`,
        ratioTo(direct, entry),
        formatMilliseconds(entry.requestMedianMs),
        formatMilliseconds(entry.requestP95Ms),
        actionsText(entry),
      ]),
      'lrrrrl',
    ),
  ];
  return lines.join('\n');
}

/** The section of docs/benchmarks.md: a heading and the block record-docs can refresh alone. */
export function serveSection(number: number, report: ServeReport | { readonly skipped: string }): string[] {
  const lines = [`## ${number}. ollm serve: added latency and throughput`, ''];
  const body = 'skipped' in report ? `Skipped: ${report.skipped}` : serveBlock(report);
  return [...lines, `<!-- recorded: ${SERVE_BLOCK} -->`, body, '<!-- /recorded -->', ''];
}
