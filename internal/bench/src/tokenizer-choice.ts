/**
 * Tokenizer choice benchmark: js-tiktoken vs gpt-tokenizer on every message text of the real
 * transcripts in ../shared/fixtures, plus the cost of core's per-message cache.
 *
 * Run: `pnpm --filter @ollm/bench bench:tokenizers` (builds, then runs dist/tokenizer-choice.js).
 * Options: `--fixtures DIR` (default: ../shared/fixtures from the repo root), `--runs N` (5),
 * `--json FILE` (also write the raw figures). Self-contained on purpose: other workloads live in
 * their own files.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100kRanks from 'js-tiktoken/ranks/cl100k_base';
import o200kRanks from 'js-tiktoken/ranks/o200k_base';
import * as gptCl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as gptO200k from 'gpt-tokenizer/encoding/o200k_base';
import { TokenCounter, TokenLedger, createTokenizer, type Message, type MessagePart } from '@ollm/core';

type Encoding = 'o200k_base' | 'cl100k_base';
type Library = 'js-tiktoken' | 'gpt-tokenizer';
const APPENDS_PER_RUN = 25;
const ENCODINGS: readonly Encoding[] = ['o200k_base', 'cl100k_base'];
const LIBRARIES: readonly Library[] = ['js-tiktoken', 'gpt-tokenizer'];
const packageFolder = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// Special-token strings (`<|endoftext|>`) inside transcripts are ordinary text to us: both
// libraries throw on them by default, so both are told to encode them as text.
const noSpecial = { disallowedSpecial: new Set<string>() };
function counterFor(library: Library, encoding: Encoding): (text: string) => number {
  if (library === 'gpt-tokenizer') {
    const module = encoding === 'o200k_base' ? gptO200k : gptCl100k;
    return (text) => module.countTokens(text, noSpecial);
  }
  const tiktoken = new Tiktoken(encoding === 'o200k_base' ? o200kRanks : cl100kRanks);
  return (text) => tiktoken.encode(text, [], []).length;
}

// ---------------------------------------------------------------- fixtures

interface ChatMessage {
  role?: string;
  content?: unknown;
  name?: string;
  tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[];
  tool_call_id?: string;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (typeof part === 'object' && part && 'text' in part ? String(part.text) : '')).join('\n');
  }
  return '';
}

/** Every OpenAI-format conversation in the fixtures folder (SWE-agent trajectories, tau-bench). */
function loadConversations(folder: string): ChatMessage[][] {
  const conversations: ChatMessage[][] = [];
  const sweFolder = join(folder, 'swe-agent-django');
  if (existsSync(sweFolder)) {
    for (const file of readdirSync(sweFolder)
      .filter((name) => name.endsWith('.traj.json'))
      .sort()) {
      const trajectory = JSON.parse(readFileSync(join(sweFolder, file), 'utf8')) as { messages: ChatMessage[] };
      conversations.push(trajectory.messages);
    }
  }
  const tauFile = join(folder, 'tau-bench-airline', 'gpt-4o-airline.json');
  if (existsSync(tauFile)) {
    const runs = JSON.parse(readFileSync(tauFile, 'utf8')) as { traj: ChatMessage[] }[];
    for (const run of runs) conversations.push(run.traj);
  }
  return conversations;
}

/** The texts a model sees in a message: its content, and each tool call's name and arguments. */
function messageTexts(message: ChatMessage): string[] {
  const texts = [contentText(message.content)];
  for (const call of message.tool_calls ?? []) texts.push(`${call.function?.name ?? ''} ${call.function?.arguments ?? ''}`);
  return texts.filter((text) => text.length > 0);
}

/** A minimal OpenAI chat -> core Message mapping, enough for the cache workload. */
function toCoreMessage(message: ChatMessage, id: string): Message {
  const parts: MessagePart[] = [];
  const text = contentText(message.content);
  if (message.role === 'tool') {
    parts.push({ type: 'tool-result', callId: message.tool_call_id ?? id, output: text });
  } else if (text.length > 0) {
    parts.push({ type: 'text', text });
  }
  for (const call of message.tool_calls ?? []) {
    parts.push({ type: 'tool-call', callId: call.id ?? id, name: call.function?.name ?? '', input: null, rawInput: call.function?.arguments ?? '' });
  }
  const role = message.role === 'system' || message.role === 'assistant' || message.role === 'tool' ? message.role : 'user';
  return { id, role, parts };
}

// ---------------------------------------------------------------- measuring

function milliseconds(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

interface LoadFigures {
  readonly loadMs: number;
  readonly heapMb: number;
  readonly rssMb: number;
}

/** Import + first encode in a fresh process, so module caches and JIT state do not leak in. */
function measureLoad(library: Library, encoding: Encoding): LoadFigures {
  const body =
    library === 'gpt-tokenizer'
      ? `const m = await import('gpt-tokenizer/encoding/${encoding}'); m.countTokens('hello world');`
      : `const { Tiktoken } = await import('js-tiktoken/lite'); const r = await import('js-tiktoken/ranks/${encoding}');` +
        ` new Tiktoken(r.default).encode('hello world');`;
  const script =
    `globalThis.gc(); const before = process.memoryUsage(); const t = process.hrtime.bigint(); ${body}` +
    ` const ms = Number(process.hrtime.bigint() - t) / 1e6; globalThis.gc(); const after = process.memoryUsage();` +
    ` console.log(JSON.stringify({ loadMs: ms, heapMb: (after.heapUsed - before.heapUsed) / 2 ** 20, rssMb: (after.rss - before.rss) / 2 ** 20 }));`;
  const runs: LoadFigures[] = [];
  for (let run = 0; run < 3; run += 1) {
    const output = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { cwd: packageFolder, encoding: 'utf8' });
    runs.push(JSON.parse(output) as LoadFigures);
  }
  return { loadMs: median(runs.map((r) => r.loadMs)), heapMb: median(runs.map((r) => r.heapMb)), rssMb: median(runs.map((r) => r.rssMb)) };
}

interface CountFigures extends LoadFigures {
  readonly library: Library;
  readonly encoding: Encoding;
  readonly tokens: number;
  readonly medianMs: number;
  readonly tokensPerSecond: number;
  readonly counts: number[];
}

function measureCounting(library: Library, encoding: Encoding, texts: readonly string[], runs: number): CountFigures {
  const count = counterFor(library, encoding);
  const counts = texts.map(count); // warm-up run, also the per-text counts compared across libraries
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const start = process.hrtime.bigint();
    for (const text of texts) count(text);
    times.push(milliseconds(start));
  }
  const tokens = counts.reduce((sum, value) => sum + value, 0);
  const medianMs = median(times);
  return { library, encoding, tokens, medianMs, tokensPerSecond: tokens / (medianMs / 1000), counts, ...measureLoad(library, encoding) };
}

interface CacheFigures {
  readonly messages: number;
  readonly coldCountMs: number;
  readonly warmRecountMs: number;
  readonly addOneAndRecountMs: number;
  readonly ledgerColdMs: number;
  readonly ledgerAppendMs: number;
  readonly ledgerAppendAt100Ms: number;
  readonly ledgerAppendAt100000Ms: number;
}

/** Per-message cache of core's TokenCounter and TokenLedger on a 10,000-message conversation. */
function measureCache(pool: readonly ChatMessage[], size: number, runs: number): CacheFigures {
  let serial = 0;
  // Fresh objects every time: the cache is keyed by identity, so reused objects would be free.
  const draw = (): Message => {
    serial += 1;
    return toCoreMessage(pool[serial % pool.length]!, `bench-${serial}`);
  };
  const build = (length: number): Message[] => Array.from({ length }, draw);
  const cold: number[] = [];
  const warm: number[] = [];
  const addOne: number[] = [];
  const ledgerCold: number[] = [];
  const ledgerAppend: number[] = [];
  const ledgerAppendSmall: number[] = [];
  const ledgerAppendHuge: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const conversation = build(size);
    const counter = new TokenCounter(createTokenizer('o200k_base'));
    let start = process.hrtime.bigint();
    counter.countMessages(conversation);
    cold.push(milliseconds(start));
    start = process.hrtime.bigint();
    counter.countMessages(conversation);
    warm.push(milliseconds(start));
    // Single appends take microseconds: time 25 of them per run and keep their median.
    const sources = Array.from({ length: APPENDS_PER_RUN }, (_, index) => pool[(serial + index * 7) % pool.length]!);
    const addOneTimes: number[] = [];
    for (const [index, source] of sources.entries()) {
      conversation.push(toCoreMessage(source, `bench-add-${run}-${index}`));
      start = process.hrtime.bigint();
      counter.countMessages(conversation);
      addOneTimes.push(milliseconds(start));
    }
    addOne.push(median(addOneTimes));

    const ledgerCounter = new TokenCounter(createTokenizer('o200k_base'));
    const ledgerMessages = build(size);
    start = process.hrtime.bigint();
    const ledger = new TokenLedger(ledgerCounter, ledgerMessages);
    ledgerCold.push(milliseconds(start));
    const small = new TokenLedger(ledgerCounter, build(100));
    // 100,000 messages from the already counted 10,000 (cached, so this costs no tokenisation).
    const huge = new TokenLedger(ledgerCounter, Array.from({ length: 10 }, () => ledgerMessages).flat());
    const largeTimes: number[] = [];
    const smallTimes: number[] = [];
    const hugeTimes: number[] = [];
    for (const [index, source] of sources.entries()) {
      // The same content appended to all three ledgers, as distinct objects (nothing cached in
      // core). gpt-tokenizer caches encoded chunks itself, so whoever goes first pays more: rotate.
      const targets = [
        { ledger, times: largeTimes, id: 'large' },
        { ledger: small, times: smallTimes, id: 'small' },
        { ledger: huge, times: hugeTimes, id: 'huge' },
      ];
      for (let turn = 0; turn < targets.length; turn += 1) {
        const target = targets[(index + turn) % targets.length]!;
        const message = toCoreMessage(source, `bench-${target.id}-${run}-${index}`);
        start = process.hrtime.bigint();
        target.ledger.append(message);
        target.times.push(milliseconds(start));
      }
    }
    ledgerAppend.push(median(largeTimes));
    ledgerAppendSmall.push(median(smallTimes));
    ledgerAppendHuge.push(median(hugeTimes));
  }
  return {
    messages: size,
    coldCountMs: median(cold),
    warmRecountMs: median(warm),
    addOneAndRecountMs: median(addOne),
    ledgerColdMs: median(ledgerCold),
    ledgerAppendMs: median(ledgerAppend),
    ledgerAppendAt100Ms: median(ledgerAppendSmall),
    ledgerAppendAt100000Ms: median(ledgerAppendHuge),
  };
}

// ---------------------------------------------------------------- report

function format(value: number, digits = 1): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function main(): void {
  const { values } = parseArgs({
    options: { fixtures: { type: 'string' }, runs: { type: 'string' }, json: { type: 'string' } },
  });
  const fixtures = resolve(values.fixtures ?? join(packageFolder, '..', '..', '..', 'shared', 'fixtures'));
  const runs = Number(values.runs ?? 5);
  const conversations = loadConversations(fixtures);
  if (conversations.length === 0) throw new Error(`No transcripts found under ${fixtures} (pass --fixtures DIR).`);
  const allMessages = conversations.flat();
  const texts = allMessages.flatMap(messageTexts);
  const characters = texts.reduce((sum, text) => sum + text.length, 0);

  const results: CountFigures[] = [];
  for (const encoding of ENCODINGS) for (const library of LIBRARIES) results.push(measureCounting(library, encoding, texts, runs));

  const lines: string[] = [];
  const cpuList = cpus();
  lines.push(
    `Machine: ${cpuList[0]?.model ?? 'unknown CPU'}, ${cpuList.length} cores, ${format(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}/${process.arch}`,
  );
  // The machine is shared: the load average says how quiet it was while measuring.
  lines.push(
    `Date: ${new Date().toISOString()}, load average at the end ${loadavg()
      .map((value) => format(value, 2))
      .join(' / ')}`,
  );
  lines.push(
    `Input: ${conversations.length} transcripts, ${allMessages.length} messages, ${texts.length} texts, ${format(characters / 1e6, 2)} M characters (${fixtures})`,
  );
  lines.push('');
  lines.push(
    '| library | encoding | load + first encode (ms) | heap after load (MiB) | RSS after load (MiB) | tokens | count all, median of ' +
      runs +
      ' (ms) | tokens/s |',
  );
  lines.push('|---|---|--:|--:|--:|--:|--:|--:|');
  for (const r of results) {
    lines.push(
      `| ${r.library} | ${r.encoding} | ${format(r.loadMs)} | ${format(r.heapMb)} | ${format(r.rssMb)} | ${r.tokens.toLocaleString('en-US')} | ${format(r.medianMs)} | ${format(r.tokensPerSecond / 1e6, 2)} M |`,
    );
  }
  lines.push('');
  for (const encoding of ENCODINGS) {
    const [a, b] = results.filter((r) => r.encoding === encoding);
    const differing = a!.counts.filter((value, index) => value !== b!.counts[index]).length;
    lines.push(
      `Counts identical (${encoding}): ${differing === 0 ? 'yes' : 'NO'} — ${differing} of ${texts.length} texts differ; speed ratio gpt-tokenizer/js-tiktoken ${format(a!.medianMs / b!.medianMs, 2)}x`,
    );
  }

  const cache = measureCache(allMessages, 10_000, runs);
  lines.push('');
  lines.push(
    `Per-message cache (core TokenCounter / TokenLedger, o200k_base, ${cache.messages.toLocaleString('en-US')} messages drawn from the fixtures, median of ${runs}):`,
  );
  lines.push('');
  lines.push('| operation | ms |');
  lines.push('|---|--:|');
  lines.push(`| countMessages, cold (every message tokenised) | ${format(cache.coldCountMs, 2)} |`);
  lines.push(`| countMessages again, all cached | ${format(cache.warmRecountMs, 3)} |`);
  lines.push(
    `| add one message, countMessages of all (${cache.messages.toLocaleString('en-US')} + 1), median of ${APPENDS_PER_RUN} appends | ${format(cache.addOneAndRecountMs, 3)} |`,
  );
  lines.push(`| new TokenLedger(${cache.messages.toLocaleString('en-US')} messages), cold | ${format(cache.ledgerColdMs, 2)} |`);
  lines.push(
    `| TokenLedger.append(one message) at ${cache.messages.toLocaleString('en-US')}, median of ${APPENDS_PER_RUN} | ${format(cache.ledgerAppendMs, 3)} |`,
  );
  lines.push(`| TokenLedger.append(same content) at 100, median of ${APPENDS_PER_RUN} | ${format(cache.ledgerAppendAt100Ms, 3)} |`);
  lines.push(`| TokenLedger.append(same content) at 100,000, median of ${APPENDS_PER_RUN} | ${format(cache.ledgerAppendAt100000Ms, 3)} |`);
  console.log(lines.join('\n'));

  if (values.json) {
    const raw = { fixtures, runs, results: results.map(({ counts: _counts, ...rest }) => rest), cache };
    writeFileSync(values.json, `${JSON.stringify(raw, null, 2)}\n`);
  }
}

main();
