import { formatMilliseconds, formatNumber, markdownTable } from '../markdown-table.js';
import { compactCommandName, CLI_HELP, CLI_STATS, NODE_BASELINE, type CliStartupReport } from './cli-startup-workload.js';
import { describeTarget } from './ratio.js';
import { doneWhenRows } from './done-when.js';
import { HOSTILE_TOOLS } from './hostile-input-workload.js';
import { ISSUE_15_BEFORE } from './issue-baseline.js';
import { incrementalName, LIVE_AGENT_PEER } from './live-agent-workload.js';
import {
  cliRatios,
  helpRatio,
  inProcessMedian,
  inProcessRatio,
  liveMedian,
  liveRatio,
  processMedian,
  processRatio,
  processRatioOverSum,
} from './speed-summary.js';
import type { SpeedReport } from './speed-report.js';
import type { ProcessCase } from './process-workload.js';

/** The scaling plot beside docs/benchmarks.md. */
export const SCALING_CHART = 'benchmarks-scaling.svg';

const PIPELINE = 'mask,code-aware,trim';
const OLLM = ['trim', PIPELINE, 'fold'];

/** 0.0052x, 0.45x, 1.95x, 15.8x, 38x. */
export function formatRatio(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  if (value < 0.1) return `${value.toPrecision(2)}x`;
  if (value < 10) return `${formatNumber(value, 2)}x`;
  if (value < 100) return `${formatNumber(value, 1)}x`;
  return `${formatNumber(value)}x`;
}

function ms(value: number | undefined): string {
  return value === undefined ? '—' : formatMilliseconds(value);
}

function labelOf(speed: SpeedReport, name: string): string {
  return speed.contenders.find((contender) => contender.name === name)?.label ?? name;
}

function doneWhenSection(speed: SpeedReport): string[] {
  const rows = doneWhenRows(speed);
  return [
    markdownTable(
      ['Done when (issue 15)', 'target', 'measured', 'met'],
      rows.map((entry) => [
        entry.criterion,
        describeTarget(entry.target),
        formatRatio(entry.measured),
        entry.met === undefined ? 'not measured' : entry.met ? 'yes' : '**no**',
      ]),
      'lrrl',
    ),
    '',
  ];
}

function beforeAfterSection(speed: SpeedReport): string[] {
  const before = ISSUE_15_BEFORE;
  const cases = speed.inProcess?.cases ?? [];
  const processes = speed.processes?.cases ?? [];
  const cli = speed.cliStartup ? cliRatios(speed.cliStartup) : [];
  const cliEntry = (name: string) => cli.find((entry) => entry.name === name);
  const runtime = speed.runtimeTurns;
  const pinned = speed.pinnedOverflow;
  const rows: string[][] = [];
  for (const [name, was] of [
    ['trim', before.trim],
    [PIPELINE, before.pipeline],
  ] as const) {
    rows.push([`${name}, warm (ms)`, formatMilliseconds(was.warmMs), ms(inProcessMedian(cases, name, 'warm'))]);
    rows.push([`${name}, warm / LangChain cached`, formatRatio(was.warmOverLangChain), formatRatio(inProcessRatio(cases, 'warm', name, 'langchain-cached'))]);
    rows.push([
      `${name}, warm / AI SDK driven to the budget`,
      formatRatio(was.warmOverAiSdk),
      formatRatio(inProcessRatio(cases, 'warm', name, 'ai-sdk-ladder')),
    ]);
    // Fresh as issue 15 meant it (nothing counted before): a new process warmed on another transcript.
    rows.push([`${name}, fresh counter (ms)`, formatMilliseconds(was.freshMs), ms(processMedian(processes, name, 'fresh'))]);
    rows.push([
      `${name}, fresh / LangChain cached`,
      formatRatio(was.freshOverLangChain),
      formatRatio(processRatio(processes, 'fresh', name, 'langchain-cached')),
    ]);
    rows.push([`${name}, fresh / AI SDK`, formatRatio(was.freshOverAiSdk), formatRatio(processRatio(processes, 'fresh', name, 'ai-sdk-ladder'))]);
    rows.push([`${name}, cold process, first call (ms)`, formatMilliseconds(was.coldMs), ms(processMedian(processes, name, 'cold'))]);
  }
  for (const [name, was] of [
    ['langchain-cached', before.langChainCached],
    ['ai-sdk-ladder', before.aiSdkLadder],
  ] as const) {
    rows.push([
      `${labelOf(speed, name)}: warm / fresh / cold (ms)`,
      `${formatMilliseconds(was.warmMs)} / ${formatMilliseconds(was.freshMs)} / ${formatMilliseconds(was.coldMs)}`,
      `${ms(inProcessMedian(cases, name, 'warm'))} / ${ms(processMedian(processes, name, 'fresh'))} / ${ms(processMedian(processes, name, 'cold'))}`,
    ]);
  }
  const trimCli = cliEntry(compactCommandName('trim'));
  const pipelineCli = cliEntry(compactCommandName(PIPELINE));
  const defaultCli = cliEntry(compactCommandName(undefined));
  const help = cliEntry(CLI_HELP);
  rows.push([
    '`ollm compact` trim, largest transcript: ms (x `node -e 0`), compaction it reports',
    `${before.cli.compactTrimMs} (${formatRatio(before.cli.compactTrimOverNode)}), ${before.cli.compactTrimReportedMs}`,
    trimCli ? `${ms(trimCli.wallMs)} (${formatRatio(trimCli.overNode)}), ${ms(trimCli.reportedMs)}` : '—',
  ]);
  rows.push([
    `\`ollm compact\` ${PIPELINE}: ms (x \`node -e 0\`)`,
    `${before.cli.compactPipelineMs} (${formatRatio(before.cli.compactPipelineOverNode)})`,
    pipelineCli ? `${ms(pipelineCli.wallMs)} (${formatRatio(pipelineCli.overNode)})` : '—',
  ]);
  rows.push([
    '`ollm compact` / (`node -e 0` + its compaction): trim, the default',
    `${formatRatio(before.cli.compactTrimOverNodeAndCompaction)}, ${formatRatio(before.cli.compactDefaultOverNodeAndCompaction)}`,
    `${formatRatio(trimCli?.overNodeAndCompaction)}, ${formatRatio(defaultCli?.overNodeAndCompaction)}${defaultCli?.provider ? ` (${defaultCli.provider})` : ''}`,
  ]);
  rows.push([
    '`ollm --help`: ms (x `node -e 0`)',
    `${before.cli.helpMs} (${formatRatio(before.cli.helpOverNode)})`,
    help ? `${ms(help.wallMs)} (${formatRatio(help.overNode)})` : '—',
  ]);
  rows.push([
    `runtime check per turn at ${runtime ? runtime.sizes.map((size) => formatNumber(size.activeMessages)).join(' / ') : '100 / 10,000 / 100,000'} active messages (ms)`,
    Object.values(before.runtimeCheckMs)
      .map((value) => formatMilliseconds(value))
      .join(' / '),
    runtime ? runtime.sizes.map((size) => formatMilliseconds(size.checkMs)).join(' / ') : '—',
  ]);
  rows.push([
    'pinned messages over the window: context at most (x the window), per-turn cost at the end (ms)',
    `${before.pinned.contextOverWindow}x, ${before.pinned.perTurnMs}`,
    pinned ? `${formatRatio(pinned.maximumContextTokens / pinned.contextSize)}, ${ms(pinned.lastTenthMs)}` : '—',
  ]);
  return [
    markdownTable(['measure', 'issue 15 (before)', 'this run'], rows, 'lrr'),
    '',
    "Issue 15 timed its fresh counter in the process that had timed everything else (gpt-tokenizer's own chunk cache warm with the transcript's words, and no content cache in core yet); " +
      'this run times it in a new process warmed on another transcript, where nothing of the conversation is cached (its same-process figure is the "new counter" column below). Compare the ratios, which are measured alike on both sides.',
    '',
  ];
}

function inProcessSection(speed: SpeedReport): string[] {
  const cases = speed.inProcess?.cases ?? [];
  const processes = speed.processes?.cases ?? [];
  if (cases.length === 0 && processes.length === 0) return [];
  const tokens = speed.conversations.map((entry) => entry.tokens);
  const processTranscripts = new Set(processes.map((entry) => entry.conversation)).size;
  const lines = [
    `### Median ms per transcript (${speed.conversations.length} SWE-agent transcripts, ${formatNumber(Math.min(...tokens))}–${formatNumber(Math.max(...tokens))} tokens, to ${Math.round(speed.budget * 100)}%)`,
    '',
    `In one process: **warm** and **new counter**. In new processes (${processTranscripts === speed.conversations.length ? 'every transcript' : `the ${formatNumber(processTranscripts)} largest transcripts`}, ${processesPer(processes)} per contender and transcript): **fresh** and **cold**.`,
    '',
  ];
  lines.push(
    markdownTable(
      [
        'contender',
        'warm',
        'new counter (same process)',
        'fresh (new process, warmed on another transcript)',
        'cold process, first call',
        'cold process, import',
      ],
      speed.contenders.map((contender) => [
        contender.label,
        ms(inProcessMedian(cases, contender.name, 'warm')),
        ms(inProcessMedian(cases, contender.name, 'fresh')),
        ms(processMedian(processes, contender.name, 'fresh')),
        ms(processMedian(processes, contender.name, 'cold')),
        ms(processMedian(processes, contender.name, 'cold', 'importMs')),
      ]),
      'lrrrrr',
    ),
    '',
  );
  lines.push('ollm / peer, the median of the per-transcript ratios (each transcript timed side by side in the same rounds, or the same kind of process):', '');
  lines.push(
    markdownTable(
      [
        'ollm',
        'warm / LangChain cached',
        'warm / AI SDK',
        'new counter / LangChain cached',
        'new counter / LangChain plain',
        'new counter / AI SDK',
        'fresh / floor',
        'fresh / (floor + code parse)',
        'fresh / LangChain cached',
        'cold / LangChain cached',
        'cold / floor',
      ],
      OLLM.map((name) => [
        name,
        formatRatio(inProcessRatio(cases, 'warm', name, 'langchain-cached')),
        formatRatio(inProcessRatio(cases, 'warm', name, 'ai-sdk-ladder')),
        formatRatio(inProcessRatio(cases, 'fresh', name, 'langchain-cached')),
        formatRatio(inProcessRatio(cases, 'fresh', name, 'langchain-plain')),
        formatRatio(inProcessRatio(cases, 'fresh', name, 'ai-sdk-ladder')),
        formatRatio(processRatio(processes, 'fresh', name, 'floor')),
        // The code parse is the pipeline's: it says nothing of what trim or fold must do.
        name === PIPELINE ? formatRatio(processRatioOverSum(processes, 'fresh', name, ['floor', 'code-parse'])) : '—',
        formatRatio(processRatio(processes, 'fresh', name, 'langchain-cached')),
        formatRatio(processRatio(processes, 'cold', name, 'langchain-cached')),
        formatRatio(processRatio(processes, 'cold', name, 'floor')),
      ]),
      'lrrrrrrrrrr',
    ),
    '',
  );
  const errors = [...new Set([...cases, ...processes].flatMap((entry) => (entry.error ? [`${entry.contender}: ${entry.error}`] : [])))];
  if (errors.length > 0) lines.push(`Errors: ${errors.slice(0, 5).join('; ')}`, '');
  return lines;
}

function liveAgentSection(speed: SpeedReport): string[] {
  const live = speed.liveAgent;
  if (!live) return [];
  const warm = speed.inProcess?.cases ?? [];
  const lines = [
    '### The live agent: the same conversation compacted again after one more turn',
    '',
    `Each transcript's history (all but its last turn) was compacted once before (untimed) and every message counted on arrival; then one more turn arrives — a copy of the last turn that no cache has seen (new ids, a marker in every text and output) — and the whole conversation is compacted again to ${Math.round(speed.budget * 100)}%. ` +
      `ollm keeps its counter (and whatever its providers cache) from the earlier compaction; LangChain \`trimMessages\` runs on the whole conversation with every count cached by id. Median of ${live.rounds} interleaved rounds per transcript.`,
    '',
    markdownTable(
      ['ollm', 'one more turn (ms)', 'whole conversation, warm (ms, above)', `LangChain cached, whole conversation (ms)`, 'ollm / LangChain'],
      OLLM.flatMap((name) => [
        [
          `${name}, compacted again in full`,
          ms(liveMedian(live.cases, name)),
          ms(inProcessMedian(warm, name, 'warm')),
          ms(liveMedian(live.cases, LIVE_AGENT_PEER)),
          formatRatio(liveRatio(live.cases, name)),
        ],
        [
          incrementalName(name),
          ms(liveMedian(live.cases, incrementalName(name))),
          '',
          ms(liveMedian(live.cases, LIVE_AGENT_PEER)),
          formatRatio(liveRatio(live.cases, incrementalName(name))),
        ],
      ]),
      'lrrrr',
    ),
    '',
    `**incremental**: the runtime's \`IncrementalCompactor\`, what \`ollm serve\` and the AI SDK and LangChain middlewares run. The window is fixed (the same ${Math.round(speed.budget * 100)}% of the whole conversation), the history was fitted to it before; the compaction of the history is found by its prefix digest and stands in for it, so only the new turn is counted, and compacted only when it no longer fits (the history is compacted to 70% of the window, so here it fits). Its output is valid and under the window, but it is not what a full compaction of the whole conversation gives: that is the row above it.`,
    '',
  ];
  const errors = [...new Set(live.cases.flatMap((entry) => (entry.error ? [`${entry.contender}: ${entry.error}`] : [])))];
  if (errors.length > 0) lines.push(`Errors: ${errors.slice(0, 5).join('; ')}`, '');
  return lines;
}

function scalingSection(speed: SpeedReport, chart: string): string[] {
  const scaling = speed.scaling;
  if (!scaling) return [];
  const sizes = [...new Set(scaling.points.map((point) => point.tokens))].sort((a, b) => a - b);
  const rows: string[][] = [];
  for (const contender of speed.contenders) {
    for (const mode of ['warm', 'fresh'] as const) {
      const points = scaling.points.filter((point) => point.contender === contender.name && point.mode === mode);
      if (points.length === 0) continue;
      rows.push([
        `${contender.label}, ${mode === 'warm' ? 'warm' : 'new counter'}`,
        ...sizes.map((size) => {
          const point = points.find((candidate) => candidate.tokens === size);
          if (!point) return '';
          if (point.skipped) return 'skipped';
          if (point.error) return 'error';
          return ms(point.medianMs);
        }),
      ]);
    }
  }
  const skipped = [
    ...new Set(scaling.points.filter((point) => point.skipped).map((point) => `${labelOf(speed, point.contender)} (${point.mode}): ${point.skipped}`)),
  ];
  return [
    '### Scaling: 10K to 5M tokens',
    '',
    `Conversations built from the SWE-agent turns (the first trajectory's system prompt and task, then every trajectory's turns over and over, each copy with new ids and a marker in its texts and outputs; tool-call arguments repeat), compacted to ${Math.round(speed.budget * 100)}%, all contenders interleaved at each size (ms, median). **new counter**: the conversation counted once before, so core's content cache (bounded) holds what it can of its texts; the plain LangChain counter and the floor tokenise everything:`,
    '',
    markdownTable(['contender', ...sizes.map((size) => `${formatNumber(size)} tokens`)], rows, `l${'r'.repeat(sizes.length)}`),
    '',
    ...(skipped.length > 0 ? [`Not run where the contender's own growth predicted more than ${scaling.capSeconds} s: ${skipped.join('; ')}.`, ''] : []),
    `![time against conversation size](${chart})`,
    '',
  ];
}

function runtimeSection(speed: SpeedReport): string[] {
  const lines: string[] = [];
  const runtime = speed.runtimeTurns;
  if (runtime) {
    lines.push(
      '### The runtime per turn',
      '',
      `A \`ContextManager\` (autoPipeline \`${runtime.pipeline}\`, a window no context here reaches, so \`maybeCompact()\` is the check alone) filled with N messages (SWE-agent turns, new ids), then ${formatNumber(runtime.sizes[0]?.turns ?? 0)} turns no cache has seen, the same at every size: \`addMessage\` for each message of the turn, then \`maybeCompact()\`. Medians:`,
      '',
      markdownTable(
        ['active messages', 'addMessage, one turn (ms)', 'maybeCompact (ms)', 'turn (ms)', 'compactions', 'filling the context (s)'],
        runtime.sizes.map((size) => [
          formatNumber(size.activeMessages),
          formatMilliseconds(size.addMs),
          formatMilliseconds(size.checkMs),
          formatMilliseconds(size.turnMs),
          formatNumber(size.compactions),
          formatNumber(size.fillSeconds, 1),
        ]),
        'rrrrrr',
      ),
      '',
      `Largest / smallest: the check **${formatRatio(runtime.checkRatio)}**, the whole turn ${formatRatio(runtime.turnRatio)}.`,
      '',
    );
  }
  const pinned = speed.pinnedOverflow;
  if (pinned) {
    const events = Object.entries(pinned.events)
      .map(([name, count]) => `\`${name}\` ${formatNumber(count)}`)
      .join(', ');
    const reasons = Object.entries(pinned.skippedReasons)
      .map(([reason, count]) => `"${reason}" ${formatNumber(count)}`)
      .join(', ');
    lines.push(
      `**Pinned messages over the window**: ${formatNumber(pinned.turns)} SWE-agent turns with the assistant message pinned, on a ${formatNumber(pinned.contextSize)}-token window (autoPipeline \`${pinned.pipeline}\`). ` +
        (pinned.pinnedOverTriggerAtTurn === undefined
          ? 'The pinned messages never reached the trigger. '
          : `From turn ${formatNumber(pinned.pinnedOverTriggerAtTurn)} the pinned messages alone hold more than the trigger; ${formatNumber(pinned.turnsOverTrigger)} turns ended over it. `) +
        `Events: ${events || 'none'}${reasons ? ` (skipped: ${reasons})` : ''}. ` +
        `Context at most ${formatNumber(pinned.maximumContextTokens)} tokens (${formatRatio(pinned.maximumContextTokens / pinned.contextSize)} the window), ${formatNumber(pinned.finalContextTokens)} at the end. ` +
        `Per turn (addMessage and maybeCompact): ${ms(pinned.firstTenthMs)} ms over the first tenth of the turns after that, ${ms(pinned.lastTenthMs)} ms over the last tenth; ${ms(pinned.medianTurnMs)} ms median over all.` +
        (pinned.errors.length > 0 ? ` Errors: ${pinned.errors.join('; ')}` : ''),
      '',
    );
  }
  return lines;
}

function cliSection(speed: SpeedReport): string[] {
  const cli = speed.cliStartup;
  if (!cli) return [];
  const ratios = cliRatios(cli);
  return [
    '### CLI start-up',
    '',
    `Each command a new \`node\` process, ${cli.rounds} interleaved rounds after one untimed round; \`ollm compact ${cli.transcript}.traj.json --limit 50% --json\` (${formatNumber(cli.tokens)} tokens; a dry run: no \`--out\`, removed content to a new \`--logdir\` each run), which reports its own compaction time (\`timeMs\`: counting the conversation, \`compactWith\` and the source digest; not reading, parsing or writing). Median wall ms:`,
    '',
    markdownTable(
      ['command', 'wall (ms)', 'compaction it reports (ms)', 'x `node -e 0`', 'x (`node -e 0` + its compaction)'],
      ratios.map((entry) => [
        entry.name === compactCommandName(undefined) && entry.provider ? `${entry.name}: ${entry.provider}` : entry.name,
        ms(entry.wallMs),
        ms(entry.reportedMs),
        entry.name === NODE_BASELINE ? '1.00x' : formatRatio(entry.overNode),
        formatRatio(entry.overNodeAndCompaction),
      ]),
      'lrrrr',
    ),
    '',
    ...(cli.commands.some((command) => command.error)
      ? [`Errors: ${cli.commands.flatMap((command) => (command.error ? [`${command.name}: ${command.error}`] : [])).join('; ')}`, '']
      : []),
    `\`ollm --help\` is ${formatRatio(helpRatio(cli))} \`node -e 0\`.`,
    ...statsSentence(cli),
    '',
  ];
}

/** What `ollm compact` does besides its compaction: start, read and count the transcript (`ollm stats`). */
function statsSentence(cli: CliStartupReport): string[] {
  const node = cli.commands.find((command) => command.name === NODE_BASELINE)?.medianWallMs;
  const stats = cli.commands.find((command) => command.name === CLI_STATS)?.medianWallMs;
  if (node === undefined || stats === undefined || !Number.isFinite(stats)) return [];
  return [
    `\`ollm stats --json\` of the same transcript (start, read, count every message, print; no compaction) takes ${ms(stats)} ms, ${ms(stats - node)} ms over \`node -e 0\`: start-up, reading and printing, the part of every \`ollm compact\` above outside the compaction time it reports, plus one count of the conversation, which that time includes.`,
  ];
}

function hostileSection(speed: SpeedReport): string[] {
  const hostile = speed.hostile;
  if (!hostile) return [];
  const rows = hostile.inputs.flatMap((input) =>
    HOSTILE_TOOLS.map((tool) => {
      const run = hostile.runs.find((entry) => entry.input === input.name && entry.tool === tool);
      if (!run) return [input.name, tool, '', '', '', '', ''];
      if (run.skipped) return [input.name, tool, '—', '—', '—', '—', `skipped: ${run.skipped}`];
      const note = run.timedOut ? `killed after ${hostile.timeoutSeconds} s` : run.error ? run.error : '';
      return [
        input.name,
        tool,
        ms(run.wallMs),
        run.countMs !== undefined ? ms(run.countMs) : '',
        run.maxRssMegabytes !== undefined ? formatNumber(run.maxRssMegabytes) : '—',
        run.timedOut ? '—' : String(run.exitCode),
        note || (run.tokens !== undefined ? `${formatNumber(run.tokens)} tokens${tool.startsWith('ollm compact') ? ' after' : ''}` : ''),
      ];
    }),
  );
  return [
    '### Hostile inputs (issue 14)',
    '',
    `Each input an OpenAI chat file: ${hostile.inputs.map((input) => `**${input.name}**: ${input.description} (${formatNumber(input.fileMegabytes, 1)} MiB)`).join('; ')}. ` +
      `Each tool a process of its own under \`/usr/bin/time -v\` (peak RSS) with a ${hostile.timeoutSeconds} s limit; "token count" is \`TokenCounter.countMessages\` with a fresh counter in a bare \`node\` (speed/hostile-count.ts), the others the CLI (\`--json\`, \`--limit 50%\`).`,
    '',
    markdownTable(['input', 'tool', 'wall (ms)', 'counting alone (ms)', 'max RSS (MiB)', 'exit', 'result'], rows, 'llrrrrl'),
    '',
  ];
}

/** `3 processes` or `one process`: how many processes each case was measured with (the most of any). */
function processesPer(cases: readonly ProcessCase[]): string {
  const counts = cases.flatMap((entry) => (entry.error === undefined ? [entry.samples ?? 1] : []));
  const most = counts.length === 0 ? 1 : Math.max(...counts);
  return most === 1 ? 'one process' : `${formatNumber(most)} processes`;
}

/**
 * docs/benchmarks.md's speed section: the Done-when ratios, issue 15's figures beside this run's,
 * then each workload's table. Every number comes from `speed`.
 */
export function renderSpeedSection(number: number, speed: SpeedReport | { readonly skipped: string } | undefined, chart = SCALING_CHART): string[] {
  const lines = [`## ${number}. Speed: ratios from one run`, ''];
  if (!speed) return [...lines, 'Not measured by this run.', ''];
  if ('skipped' in speed) return [...lines, `Skipped: ${speed.skipped}.`, ''];
  lines.push(
    `Every contender counts with the same o200k counter (core's tokenizer (gpt-tokenizer's o200k ranks) through its \`TokenCounter\`; LangChain and the AI SDK through the converters of section 2, counted as ollm counts) and compacts each SWE-agent transcript to ${Math.round(speed.budget * 100)}% of its tokens. ` +
      `In one process the contenders are timed **interleaved**: round after round each runs once, the order rotating every round (A B C, B C A, C A B …); figures are medians${speed.inProcess ? ` of ${speed.inProcess.rounds} rounds per transcript (the plain LangChain counter, the square of the others' time, in the first ${speed.inProcess.costlyRounds === 1 ? 'round only' : `${speed.inProcess.costlyRounds} rounds`}), then the median over transcripts` : ''}. ` +
      "**warm**: every message counted on arrival and the same compaction run once before, caches kept across runs (ollm's counter and providers, LangChain's counts by id, the AI SDK ladder's counts by shape). " +
      "**new counter**: a new token counter every run, in the same process — the caches that outlive a counter (core's content cache per tokenizer, the providers' own) still answer for texts seen before, as they would for a conversation read again. " +
      '**fresh**: a conversation no cache has seen, with the code compiled: a new `node` per contender and transcript compacts another transcript first (the smallest), then this one, timed. ' +
      '**cold process, first call**: a new `node` per contender and transcript that loads only that contender, reads the transcript and times its first compaction (the tokenizer tables load inside it). ' +
      `New processes run in interleaved rounds too (${processesPer(speed.processes?.cases ?? [])} per contender, kind and transcript, the median of each). ` +
      'Peers: LangChain.js `trimMessages` (`startOn: ["human", "ai"]`) with a **cached** counter (counts by message id, kept across calls) and a **plain** one (every message tokenised on every call, as its documentation writes one); ' +
      'AI SDK `pruneMessages` **driven to the budget** (the ladder of section 5, least pruning first, counts cached by message shape); ' +
      'the **floor**: `JSON.parse` of the conversation + one exact tokenisation + one sha256, what any compaction of an unseen conversation must do at least; ' +
      'the **code parse** (fresh processes only): one tree-sitter parse of each code text `mask,code-aware,trim` parses on that conversation (recorded in another process, the same grammars), so that **floor + code parse**, summed per transcript, is what a compaction that folds code by its syntax must do at least.',
    '',
    ...doneWhenSection(speed),
    'Issue 15\'s figures ("What was seen") beside this run:',
    '',
    ...beforeAfterSection(speed),
    ...inProcessSection(speed),
    ...liveAgentSection(speed),
    ...scalingSection(speed, chart),
    ...runtimeSection(speed),
    ...cliSection(speed),
    ...hostileSection(speed),
  );
  return lines;
}
