import { formatMilliseconds, formatNumber, markdownTable } from '../markdown-table.js';
import type { MiddlewareFramework, MiddlewareLoopCase, MiddlewareReport } from './middleware-report.js';
import type { StepStatistics } from './step-statistics.js';
import type { StepKind } from './step-timeline.js';

/** The name of the block record-docs owns in docs/benchmarks.md (`<!-- recorded: middleware -->`). */
export const MIDDLEWARE_BLOCK = 'middleware';

const FRAMEWORK_LABELS: Record<MiddlewareFramework, string> = {
  'ai-sdk': 'AI SDK `generateText`',
  langchain: 'LangChain `createAgent`',
};

const KIND_LABELS: Record<StepKind, string> = {
  plain: 'none: plain model',
  fits: 'fits (sent as it came)',
  reused: 'reused a compaction',
  compacted: 'compacted now',
};

/** Signed milliseconds: +1.35, −0.20. */
function signed(value: number): string {
  if (!Number.isFinite(value)) return '—';
  return `${value >= 0 ? '+' : '−'}${formatMilliseconds(Math.abs(value))}`;
}

function stepCells(statistics: StepStatistics): string[] {
  return [
    formatNumber(statistics.steps),
    formatMilliseconds(statistics.stepMedianMs),
    formatMilliseconds(statistics.stepP95Ms),
    formatMilliseconds(statistics.modelCallMedianMs),
    formatMilliseconds(statistics.modelCallP95Ms),
    Number.isFinite(statistics.middlewareMedianMs) ? `**${formatMilliseconds(statistics.middlewareMedianMs)}**` : '—',
    formatMilliseconds(statistics.middlewareP95Ms),
  ];
}

/** `refused at step 13`, or `refused at steps 12–13` when runs differ. */
function refusedText(steps: readonly number[]): string {
  const low = Math.min(...steps);
  const high = Math.max(...steps);
  return low === high ? `refused at step ${low}` : `refused at steps ${low}–${high}`;
}

function caseRows(entry: MiddlewareLoopCase): string[][] {
  const framework = FRAMEWORK_LABELS[entry.framework];
  const loop = `${formatNumber(entry.loopSteps)} steps`;
  const model = entry.wrapped ? 'wrapped' : 'plain';
  if (!entry.wrapped) {
    const kind = entry.refusedSteps.length > 0 ? `${KIND_LABELS.plain}, ${refusedText(entry.refusedSteps)}` : KIND_LABELS.plain;
    return [[framework, loop, model, kind, ...stepCells(entry.all)]];
  }
  if (entry.byKind.length <= 1) return [[framework, loop, model, KIND_LABELS[entry.byKind[0]?.kind ?? 'fits'], ...stepCells(entry.all)]];
  return [
    [framework, loop, model, 'all', ...stepCells(entry.all)],
    ...entry.byKind.map(({ kind, statistics }) => [framework, loop, model, KIND_LABELS[kind], ...stepCells(statistics)]),
  ];
}

function pairedRows(cases: readonly MiddlewareLoopCase[]): string[][] {
  return cases.flatMap((entry) => {
    if (!entry.added) return [];
    const fits = entry.byKind.find((split) => split.kind === 'fits')?.statistics;
    return [
      [
        FRAMEWORK_LABELS[entry.framework],
        `${formatNumber(entry.loopSteps)} steps`,
        formatNumber(entry.added.pairs),
        `**${signed(entry.added.addedMedianMs)}**`,
        signed(entry.added.addedP95Ms),
        fits ? formatMilliseconds(fits.middlewareMedianMs) : '—',
      ],
    ];
  });
}

/** What a reused step's own time does as the history grows, when the long loop reused in both halves. */
function halvesText(cases: readonly MiddlewareLoopCase[]): string[] {
  const parts = cases.flatMap((entry) => {
    const halves = entry.reusedByHalf;
    if (!halves) return [];
    const last = entry.loopSteps + 1;
    return [
      `${formatMilliseconds(halves.first.middlewareMedianMs)} ms in steps up to ${formatNumber(halves.splitStep)} and ${formatMilliseconds(halves.second.middlewareMedianMs)} ms in steps ${formatNumber(halves.splitStep + 1)}–${formatNumber(last)} (${FRAMEWORK_LABELS[entry.framework]})`,
    ];
  });
  if (parts.length === 0) return [];
  return [
    '',
    `A reused step's own time grows with the history, as each step reads the whole prompt again (converts it, and keys every message for the compaction cache): median ${parts.join('; ')}.`,
  ];
}

function packageList(packages: Readonly<Record<string, string>>, names: readonly string[]): string {
  return names.map((name) => `\`${name}\` ${packages[name] ?? '?'}`).join(', ');
}

/**
 * The content of the middleware block: what is measured and where, the per-step table and the
 * paired difference. Every figure is a time, so each recording changes it.
 */
export function middlewareBlock(report: MiddlewareReport): string {
  const { machine, packages } = report;
  const lengths = [...new Set(report.cases.map((entry) => entry.loopSteps))].sort((a, b) => a - b);
  const shortest = lengths[0] ?? 0;
  const longest = lengths.at(-1) ?? 0;
  const ofLength = (steps: number) => report.cases.filter((entry) => entry.loopSteps === steps);
  const short = ofLength(shortest);
  const long = ofLength(longest);
  const largestShort = Math.max(0, ...short.map((entry) => entry.largestPromptTokens));
  const plainLong = long.filter((entry) => !entry.wrapped);
  const wrappedLong = long.filter((entry) => entry.wrapped);
  const refused = plainLong.flatMap((entry) => entry.refusedSteps);
  const history = Math.max(0, ...wrappedLong.map((entry) => entry.largestHistoryTokens));
  const largestWrapped = Math.max(0, ...wrappedLong.map((entry) => entry.largestPromptTokens));
  const overWindow = report.cases.reduce((sum, entry) => sum + entry.answeredOverWindow, 0);
  const runs = (entries: readonly MiddlewareLoopCase[]) => formatNumber(entries[0]?.runs ?? 0);
  const lines = [
    `What a step of an agent loop costs with ollm's context middleware and without it, for the AI SDK and LangChain: client, middleware and \`@ollm/fake-model-server\` in one Node process on ${machine.cpu}, ${machine.cores} cores shared with other work (Node ${machine.node}, load average at the start ${machine.loadAverage.join(' / ')}; measured ${report.date.slice(0, 10)} in ${formatNumber(report.durationSeconds)} s), so their work adds up on one event loop.`,
    '',
    `The fake server serves \`${report.model}\` with its window of ${formatNumber(report.window)} enforced (a prompt that with the reply limit is over it gets a 400, as vLLM and OpenAI answer). ` +
      `The model calls \`read_file\` once a step (each result about ${formatNumber(report.toolResultTokens)} tokens of code, its own in every run, so no count is answered from another run's cache) until N results are in, then answers; every call sets a reply limit of ${formatNumber(report.replyLimit)} tokens. ` +
      `**AI SDK**: \`generateText\` with \`stopWhen: stepCountIs(N + 1)\` (${packageList(packages, ['ai', '@ai-sdk/openai-compatible'])}), the model plain or wrapped with \`wrapLanguageModel\` and \`@ollm/ai-sdk\`'s \`contextMiddleware({ contextSize: ${report.window} })\`; ` +
      `**LangChain**: \`createAgent\` with \`ChatOpenAI\` (${packageList(packages, ['langchain', '@langchain/core', '@langchain/openai'])}), plain or with \`@ollm/langchain\`'s \`contextMiddleware\`. ` +
      `A new middleware per run (pipeline \`${report.pipeline}\`, nothing cached from another run). ` +
      "**step**: from one model call's start to the next one's (the model call, the tool, the framework's own work); **model call**: what the framework waits for (the middleware, the HTTP request, the reply parsed); " +
      "**middleware's own**: the time inside the middleware itself, measured directly: `transformParams` (AI SDK), `wrapModelCall` less the handler it hands the request to (LangChain). " +
      `Runs alternate plain and wrapped, and the frameworks' order, round by round; one untimed loop of ${formatNumber(report.warmUpSteps)} steps per framework and variant runs first. Compare rows within a loop: the two loops ran at different moments on a shared machine.`,
    '',
    '### Per step (ms)',
    '',
    markdownTable(
      [
        'framework',
        'loop',
        'model',
        'what the middleware did',
        'steps',
        'step median',
        'step p95',
        'model call median',
        'model call p95',
        "middleware's own median",
        "middleware's own p95",
      ],
      report.cases.flatMap(caseRows),
      'llllrrrrrrr',
    ),
    '',
    `In the ${formatNumber(shortest)}-step loop (${runs(short)} runs per framework and variant) every prompt fits (the largest ${formatNumber(largestShort)} tokens): the middleware reads the prompt as ollm messages, counts it and sends it as it came. ` +
      `In the ${formatNumber(longest)}-step loop (${runs(long)} run${long[0]?.runs === 1 ? '' : 's'} each) the history grows to ${formatNumber(history)} tokens: the plain model is ${refused.length > 0 ? refusedText(refused) : 'never refused'} (its rows are the steps before), ` +
      `the wrapped one runs every step with prompts of at most ${formatNumber(largestWrapped)} tokens; ${formatNumber(overWindow)} answered prompts in this section were over the window. ` +
      "**reused**: an earlier step's compaction stands in for the prefix (the new span counted, nothing compacted); **compacted now**: that compaction and the new span go through fold again. The rows by kind are the same steps as the row **all**, split by the middleware's `onCompaction` report (none: it fitted).",
    ...halvesText(long),
    '',
    '### Added to a model call, paired',
    '',
    "Each wrapped run's model calls against the plain run of the same round, step by step, over the steps both made (all of which fit): the difference carries the HTTP round trip's noise, the middleware's own time does not.",
    '',
    markdownTable(['framework', 'loop', 'pairs', 'added median', 'added p95', "middleware's own median (fits)"], pairedRows(report.cases), 'llrrrr'),
  ];
  return lines.join('\n');
}

/** The section of docs/benchmarks.md: a heading and the block record-docs can refresh alone. */
export function middlewareSection(number: number, report: MiddlewareReport | { readonly skipped: string }): string[] {
  const lines = [`## ${number}. Middlewares: overhead per agent step`, ''];
  const body = 'skipped' in report ? `Skipped: ${report.skipped}` : middlewareBlock(report);
  return [...lines, `<!-- recorded: ${MIDDLEWARE_BLOCK} -->`, body, '<!-- /recorded -->', ''];
}
