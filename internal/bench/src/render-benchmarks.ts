import type { BenchReport } from './bench-report.js';
import type { CompactionSummary } from './compaction-summary.js';
import type { CompactionCase } from './compaction-workload.js';
import { median } from './measure.js';
import { futureNeedSection } from './future-need/section.js';
import { longChatSection } from './long-chat/section.js';
import { promptCacheSection } from './prompt-cache/section.js';
import { middlewareSection } from './middleware/render-middleware.js';
import { renderNotes } from './render-notes.js';
import { serveSection } from './serve/render-serve.js';
import { renderSpeedSection } from './speed/render-speed.js';
import { retentionByKindTable } from './retention-by-kind.js';
import { formatMilliseconds, formatNumber, formatPercent, markdownTable } from './markdown-table.js';

function brokenRulesText(summary: CompactionSummary): string {
  const entries = Object.entries(summary.brokenRules);
  if (entries.length === 0) return 'none';
  return entries.map(([rule, count]) => `${rule} ${count}`).join(', ');
}

function compactionTable(summaries: readonly CompactionSummary[]): string {
  return markdownTable(
    [
      'strategy',
      'target',
      'ms new counter',
      'ms warm',
      'tokens after',
      'at or under limit',
      'valid',
      'rules broken (conversations)',
      'retention median',
      'retention pooled',
    ],
    summaries.map((summary) => [
      summary.strategy,
      formatPercent(summary.target),
      formatMilliseconds(summary.medianColdMs),
      formatMilliseconds(summary.medianWarmMs),
      formatPercent(summary.medianTokensAfterShare, 1),
      `${summary.reachedLimit}/${summary.conversations}`,
      `${summary.valid}/${summary.conversations}`,
      brokenRulesText(summary),
      formatPercent(summary.medianRetention, 1),
      formatPercent(summary.pooledRetention, 1),
    ]),
    'llrrrrrlrr',
  );
}

function largestTable(cases: readonly CompactionCase[]): string {
  return markdownTable(
    ['strategy', 'target', 'ms new counter', 'ms warm', 'tokens after', 'valid', 'retention', 'lost probes'],
    cases.map((entry) => [
      entry.strategy,
      formatPercent(entry.target),
      formatMilliseconds(entry.timeColdMs),
      formatMilliseconds(entry.timeWarmMs),
      `${formatNumber(entry.tokensAfter)} (${formatPercent(entry.tokensAfter / entry.tokensBefore, 1)})`,
      entry.brokenRules.length === 0 ? 'yes' : `no: ${entry.brokenRules.join(', ')}`,
      `${entry.probesRetained}/${entry.probesAvailable}`,
      entry.lostProbes.length === 0
        ? ''
        : entry.lostProbes
            .slice(0, 4)
            .map((probe) => `\`${probe}\``)
            .join(', ') + (entry.lostProbes.length > 4 ? ` +${entry.lostProbes.length - 4}` : ''),
    ]),
    'llrrrlrl',
  );
}

function tokenAccountingSection(report: BenchReport): string[] {
  const { coldCounts, incremental } = report.tokenAccounting;
  const lines = ['## 1. Token accounting', ''];
  lines.push('Cold count (o200k_base, core `TokenCounter.countMessages`, a fresh counter each repetition; parsing excluded):', '');
  lines.push(
    markdownTable(
      ['fixture file', 'conversations', 'messages', 'tokens', 'ms (median)', 'tokens/s'],
      coldCounts.map((count) => [
        count.file,
        formatNumber(count.conversations),
        formatNumber(count.messages),
        formatNumber(count.tokens),
        formatMilliseconds(count.medianMs),
        `${formatNumber(count.tokensPerSecond / 1e6, 2)} M`,
      ]),
      'lrrrrr',
    ),
  );
  lines.push('');
  lines.push(
    `Adding one message (never counted before) to a conversation of N messages drawn from the fixtures; median of ${incremental.appendsPerSize} additions per size, the same ${incremental.appendsPerSize} source messages at every size:`,
    '',
  );
  lines.push(
    markdownTable(
      ['messages', 'cold count of the conversation (ms, once)', '`TokenLedger.append` (ms)', '`countMessages` of all after the push (ms)'],
      incremental.sizes.map((size) => [
        formatNumber(size.messages),
        formatMilliseconds(size.coldCountMs),
        formatMilliseconds(size.ledgerAppendMs),
        formatMilliseconds(size.countMessagesMs),
      ]),
      'rrrr',
    ),
  );
  const first = incremental.sizes[0]!;
  const last = incremental.sizes[incremental.sizes.length - 1]!;
  lines.push('');
  lines.push(
    `Largest / smallest (${formatNumber(last.messages)} vs ${formatNumber(first.messages)} messages): \`TokenLedger.append\` **${formatNumber(incremental.ledgerRatio, 2)}x**, ` +
      `\`countMessages\` after the push **${formatNumber(incremental.countMessagesRatio, 1)}x** (it walks every message, cached or not).`,
    '',
  );
  return lines;
}

function compactionSection(report: BenchReport): string[] {
  const { compaction } = report;
  const lines = ['## 2. Compaction: ollm vs LangChain.js `trimMessages` vs AI SDK `pruneMessages`', ''];
  lines.push(
    `Each transcript is compacted to ${compaction.targets.map((target) => `${Math.round(target * 100)}%`).join(', ')} of its own tokens, all strategies in one process on the same messages. ` +
      'ollm: `compactWith` (host validation included), providers from a `ProviderRegistry` (`fold` is the default of `ollm compact`; pipelines such as `mask,code-aware,trim` through `registry.get`), no `logdir` (nothing written to disk). ' +
      'LangChain.js: `trimMessages({ strategy: "last", includeSystem: true, allowPartial: false, startOn })` with core\'s `TokenCounter` as `tokenCounter`; messages converted as ChatOpenAI represents them (AIMessage `tool_calls`, ToolMessage). ' +
      'AI SDK: `pruneMessages({ reasoning: "all", toolCalls: "before-last-message", emptyMessages: "remove" })` on `ModelMessage[]` is a filter with no token target (its row shows what it reaches), and **driven to the budget** (the ladder of section 5: least pruning first, the first setting whose output fits). ' +
      'Every output is converted back and counted with core\'s counter; "valid" means core\'s integrity rules (`findIntegrityViolations`: tool pairing, system/user/pinned messages unchanged, order, not larger, and the `openai` message shape: nothing empty, results right after their call) all hold.',
    '',
  );
  lines.push(
    "**ms new counter**: a new token counter per run (conversion to LangChain / AI SDK messages is outside the timed call), in a process that has run everything before: core's content cache, shared per tokenizer, and the providers' own caches still answer for texts counted before. Section 6 times a fresh process (nothing of the conversation cached) and a cold one. " +
      '**ms warm**: the counts are already cached, as in a live session where each message was counted when it arrived (LangChain: the counter caches by message id across calls). ' +
      `Strategies are timed interleaved (each round runs each once, the order rotating); times are medians over conversations of ${compaction.repetitions === 1 ? 'one run each' : `the median of ${compaction.repetitions} runs each`}. Section 6 has the speed comparison proper.`,
    '',
  );
  lines.push(
    '**Retention**: probes computed from ground truth — the file paths and function/class names of the final patch, the FAIL_TO_PASS test names of the SWE-bench report and the identifiers of the task statement (SWE-agent); the user id, reservation ids and amounts of the expected actions (tau-bench). ' +
      'Retention is the share of the probes present in the uncompressed context that are still present after compaction, searching all message text including tool calls and results. ' +
      '**The pinned SWE-agent `exit` message (the final patch itself) is excluded from the searched text**, or every patch probe would trivially survive.',
    '',
  );
  for (const kind of ['swe-agent', 'tau-bench'] as const) {
    const summaries = compaction.summaries.filter((summary) => summary.kind === kind);
    if (summaries.length === 0) continue;
    lines.push(`### ${kind === 'swe-agent' ? 'SWE-agent (Django)' : 'tau-bench (airline)'}: ${summaries[0]!.conversations} conversations`, '');
    lines.push(compactionTable(summaries), '');
    const lowest = Math.min(...compaction.targets);
    const byKind = retentionByKindTable(compaction.cases, kind, lowest);
    if (byKind) lines.push(`Retention by probe kind at ${formatPercent(lowest)} (pooled; probes available in parentheses):`, '', byKind, '');
  }
  const largest = compaction.largest;
  lines.push(`### The largest transcript: ${largest.conversation} (${formatNumber(largest.tokensBefore)} tokens), median of ${largest.repetitions} runs`, '');
  lines.push(largestTable(largest.cases), '');
  lines.push(
    `Of each ollm run, core's \`computeSourceDigest\` of the input (sha256 over its canonical form, part of every \`CompactionResult\`) alone takes ${formatMilliseconds(largest.sourceDigestMs)} ms here.`,
    '',
  );
  lines.push('![tokens after vs retention](benchmarks-tradeoff.svg)', '');
  return lines;
}

function goalAwareSection(report: BenchReport): string[] {
  const lines = ['## 3. Goal-aware in a growing session (fake model server)', ''];
  const sessions = report.goalAware;
  if ('skipped' in sessions) return [...lines, `Skipped: ${sessions.skipped}`, ''];
  const first = sessions[0];
  if (!first) return [...lines, 'No session was run.', ''];
  lines.push(
    `Core's \`ContextManager\` at contextSize ${formatNumber(first.contextSize)}; goal-aware summarises through \`@ollm/model-ollama\` pointed at \`@ollm/fake-model-server\`, ` +
      `which counts the prompt tokens it receives (o200k). Turns are SWE-agent assistant turns with their tool results, in order, with fresh ids; ${formatNumber(first.turns)} turns. ` +
      'A compression is one automatic compaction step (`maybeCompress` that changed the context).',
    '',
  );
  for (const result of sessions) {
    lines.push(`autoPipeline \`${result.pipeline}\`:`, '');
    const windows: string[][] = [];
    const step = Math.max(100, Math.ceil(result.turns / 10 / 100) * 100);
    for (let start = 0; start < result.turns; start += step) {
      const inWindow = result.compactions.filter((entry) => entry.turn > start && entry.turn <= start + step);
      const withModel = inWindow.filter((entry) => entry.modelCalls > 0);
      windows.push([
        `${start + 1}–${Math.min(result.turns, start + step)}`,
        formatNumber(inWindow.length),
        formatNumber(withModel.length),
        withModel.length === 0 ? '—' : formatNumber(median(withModel.map((entry) => entry.modelTokensSent))),
        withModel.length === 0 ? '—' : formatNumber(Math.max(...withModel.map((entry) => entry.modelTokensSent))),
        withModel.length === 0 ? '—' : formatNumber(median(withModel.map((entry) => entry.modelCalls)), 1),
        inWindow.length === 0 ? '—' : formatNumber(Math.max(...inWindow.map((entry) => entry.checkpointTokens))),
      ]);
    }
    lines.push(
      markdownTable(
        [
          'turns',
          'compactions',
          'of them calling the model',
          'model tokens sent per model compression (median)',
          '(max)',
          'model calls (median)',
          'checkpoint tokens after (max)',
        ],
        windows,
        'lrrrrrr',
      ),
      '',
    );
    lines.push(
      `Compressions per 1,000 turns: **${formatNumber(result.compressionsPerThousandTurns, 1)}**. Largest context after any turn: ${formatNumber(result.maximumContextTokens)} of ${formatNumber(result.contextSize)} tokens. ` +
        `Checkpoint tokens at most ${formatNumber(result.maximumCheckpointTokens)}.${result.errors.length > 0 ? ` Errors: ${result.errors.join('; ')}` : ''}`,
      '',
    );
  }
  return lines;
}

function storageSection(report: BenchReport): string[] {
  const history = report.sessionHistory;
  const memory = report.compactMemory;
  const lines = ['## 4. Session history and memory', ''];
  lines.push(
    `\`SessionHistory.append\` (one JSON line under a cross-process lock) in a temporary \`OLLM_HOME\`; the large history is written directly in the same line format first. Median of ${history.appendsPerSize} appends:`,
    '',
  );
  lines.push(
    markdownTable(
      ['turns in the history', 'file (MiB)', 'append (ms)'],
      history.sizes.map((size) => [formatNumber(size.turns), formatNumber(size.fileMegabytes, 1), formatMilliseconds(size.appendMs)]),
      'rrr',
    ),
    '',
  );
  lines.push(`Largest / smallest: **${formatNumber(history.ratio, 2)}x**.`, '');
  lines.push(
    `Peak memory of \`${memory.command}\`: the largest transcript (${memory.source}) repeated ${memory.factor}x with fresh tool call ids, as an OpenAI chat file of ${formatNumber(memory.messages)} messages (${formatNumber(memory.fileMegabytes, 1)} MiB, \`extra\` dropped). ` +
      `Max RSS **${memory.maxRssMegabytes === undefined ? 'not measured' : `${formatNumber(memory.maxRssMegabytes)} MiB`}** (${memory.method}), wall ${formatNumber(memory.wallSeconds, 1)} s, exit code ${memory.exitCode}.`,
    '',
  );
  return lines;
}

const FIXTURE_ORIGINS: Record<BenchReport['fixtures']['origin'], string> = {
  shared: 'the shared set',
  repository: "the repository's own sample (../shared/fixtures was not there)",
  given: 'the folder given with --fixtures',
};

function fixtureCount(report: BenchReport, folder: string): number {
  return report.fixtures.files.filter((file) => file.file.startsWith(folder)).reduce((sum, file) => sum + file.conversations, 0);
}

/** The future-need chart beside docs/benchmarks.md (also written by record-docs). */
export const FUTURE_NEED_CHART = 'benchmarks-future-need.svg';

/** docs/benchmarks.md, generated: every number comes from `report`. */
export function renderBenchmarks(report: BenchReport): string {
  const { machine } = report;
  const lines = [
    '# Benchmarks',
    '',
    `Generated by \`pnpm bench\` (${report.mode} mode, ${formatNumber(report.durationSeconds)} s) on ${report.date}. Do not edit by hand; raw figures: \`bench/results/latest.json\`.`,
    '',
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${formatNumber(machine.memoryGibibytes, 1)} GiB, Node ${machine.node}, ${machine.platform}; load average at the start ${machine.loadAverage.join(' / ')} ` +
      '(a machine shared with other builds: absolute times are noisy, ratios and sizes are not).',
    '',
    `Fixtures: ${FIXTURE_ORIGINS[report.fixtures.origin]} (\`${report.fixtures.folder}\`): ` +
      `${fixtureCount(report, 'swe-agent-django/')} SWE-agent trajectories and ${fixtureCount(report, 'tau-bench-airline/')} tau-bench runs.`,
    '',
    ...tokenAccountingSection(report),
    ...compactionSection(report),
    ...goalAwareSection(report),
    ...storageSection(report),
    ...futureNeedSection(5, report.futureNeed ?? { skipped: 'not measured by this run' }, FUTURE_NEED_CHART),
    ...renderSpeedSection(6, report.speed),
    ...renderNotes(report),
    ...serveSection(8, report.serve ?? { skipped: 'not measured by this run' }),
    ...middlewareSection(9, report.middleware ?? { skipped: 'not measured by this run' }),
    ...longChatSection(10, report.longChat ?? { skipped: 'not measured by this run' }),
    ...promptCacheSection(11, report.promptCache ?? { skipped: 'not measured by this run' }),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
