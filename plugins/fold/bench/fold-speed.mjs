/**
 * fold's speed on SWE-agent trajectories (`fixtures/swe-agent-django` and `../shared/fixtures/**`),
 * after `npx tsc -p plugins/fold/tsconfig.build.json` (it runs the built `dist`, or the build in
 * `FOLD_DIST`, a folder relative to this one, to compare two builds). From the repo root:
 *
 *   node plugins/fold/bench/fold-speed.mjs [warm|live|fresh|cold|process|langchain|all] [repetitions]
 *   FOLD_PROFILE=/tmp/fold.cpuprofile node plugins/fold/bench/fold-speed.mjs profile
 *
 * - warm: the same messages compacted again and again (a counter that has counted them, as a live
 *   session's ledger has); median ms per transcript, median over transcripts, at 50 / 25 / 10%.
 * - live: the conversation without its last turn compacted, then the whole one (the same message
 *   objects and counter, the limit a share of the whole); the second call is timed.
 * - fresh: each call on a fresh parse of the file (new objects, the same strings) and a fresh counter.
 * - cold: the first call on each transcript in this process, fold's caches empty.
 * - process: the first call in a new process, nothing counted before it.
 * - langchain: LangChain `trimMessages` with a cached counter on the whole conversation, through
 *   internal/bench's built strategy (`pnpm build --filter @ollm/bench`), when it is there.
 * - profile: the largest transcript compacted 20 times at each budget, after one call at each
 *   (with FOLD_PROFILE, a CPU profile of those calls only).
 *
 * Times are `compactWith` (the host's validation and source digest included).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TokenCounter, compactWith, createTokenizer } from '@ollm/core';
import { readTranscript } from '@ollm/transcripts';

// Before the caches existed there was nothing to clear.
const dist = process.env.FOLD_DIST ?? '../dist';
const { createFoldProvider } = await import(`${dist}/index.js`);
const { clearFoldCaches = () => {} } = await import(`${dist}/cache/fold-caches.js`).catch(() => ({}));

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..', '..');
const SHARES = [0.5, 0.25, 0.1];

function trajectories() {
  const found = new Map();
  const walk = (folder) => {
    if (!existsSync(folder)) return;
    for (const entry of readdirSync(folder)) {
      const path = join(folder, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith('.traj.json') && !found.has(entry)) found.set(entry, path);
    }
  };
  walk(join(root, 'fixtures', 'swe-agent-django'));
  walk(resolve(root, '..', 'shared', 'fixtures'));
  return [...found.values()].sort();
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const tokenizer = createTokenizer('o200k_base');
const counter = (messages) => {
  const tokens = new TokenCounter(tokenizer);
  if (messages) tokens.countMessages(messages);
  return tokens;
};
const read = async (file) => (await readTranscript(file, { format: 'swe-agent' })).conversations[0].messages;
const fold = createFoldProvider();
async function timed(messages, limit, tokens) {
  const started = performance.now();
  const result = await compactWith(fold, messages, { config: { limit }, context: { tokens } });
  return { ms: performance.now() - started, result };
}

/** Where the last turn (its assistant message and the results of its calls) begins. */
function lastTurnStart(messages) {
  for (let index = messages.length - 1; index >= 0; index--) if (messages[index].role === 'assistant') return index;
  return messages.length;
}

function row(label, perShare) {
  console.log(`${label.padEnd(44)} ${SHARES.map((share) => `${(share * 100).toFixed(0)}%: ${perShare.get(share).toFixed(2).padStart(8)} ms`).join('   ')}`);
}

async function warm(files, repetitions) {
  const perShare = new Map(SHARES.map((share) => [share, []]));
  for (const file of files) {
    const messages = await read(file);
    const total = counter().countMessages(messages);
    for (const share of SHARES) {
      const limit = Math.floor(total * share);
      const times = [];
      for (let repetition = 0; repetition <= repetitions; repetition++) {
        const { ms } = await timed(messages, limit, counter(messages));
        if (repetition > 0) times.push(ms); // the first call fills fold's caches
      }
      perShare.get(share).push(median(times));
    }
  }
  row('warm (median over transcripts)', new Map([...perShare].map(([share, times]) => [share, median(times)])));
}

async function fresh(files, repetitions) {
  const perShare = new Map(SHARES.map((share) => [share, []]));
  for (const file of files) {
    const total = counter().countMessages(await read(file));
    for (const share of SHARES) {
      const limit = Math.floor(total * share);
      const times = [];
      for (let repetition = 0; repetition <= repetitions; repetition++) {
        const messages = await read(file);
        const { ms } = await timed(messages, limit, counter());
        if (repetition > 0) times.push(ms);
      }
      perShare.get(share).push(median(times));
    }
  }
  row('fresh parse, fresh counter', new Map([...perShare].map(([share, times]) => [share, median(times)])));
}

async function cold(files) {
  const perShare = new Map(SHARES.map((share) => [share, []]));
  // One call first, so "cold" is fold's caches, not the JIT compiling every module.
  const first = await read(files[0]);
  await timed(first, Math.floor(counter().countMessages(first) / 2), counter(first));
  for (const file of files) {
    const messages = await read(file);
    const total = counter().countMessages(messages);
    for (const share of SHARES) {
      clearFoldCaches();
      const { ms } = await timed(messages, Math.floor(total * share), counter(messages));
      perShare.get(share).push(ms);
    }
  }
  row('first call, caches empty (process warm)', new Map([...perShare].map(([share, times]) => [share, median(times)])));
}

async function live(files, repetitions) {
  const perShare = new Map(SHARES.map((share) => [share, []]));
  for (const file of files) {
    const messages = await read(file);
    const prefix = messages.slice(0, lastTurnStart(messages));
    const total = counter().countMessages(messages);
    for (const share of SHARES) {
      const limit = Math.floor(total * share);
      const times = [];
      for (let repetition = 0; repetition < repetitions; repetition++) {
        clearFoldCaches();
        const tokens = counter(prefix);
        await timed(prefix, limit, tokens);
        tokens.countMessages(messages); // the ledger counts the new turn as it arrives
        times.push((await timed(messages, limit, tokens)).ms);
      }
      perShare.get(share).push(median(times));
    }
  }
  row('live: one more turn (median over transcripts)', new Map([...perShare].map(([share, times]) => [share, median(times)])));
}

async function langchain(files, repetitions) {
  const built = join(root, 'internal', 'bench', 'dist', 'strategies.js');
  if (!existsSync(built)) return console.log('langchain: internal/bench is not built');
  const { langChainStrategy } = await import(built);
  const strategy = langChainStrategy('human-or-ai');
  const perShare = new Map(SHARES.map((share) => [share, []]));
  for (const file of files) {
    const messages = await read(file);
    const total = counter().countMessages(messages);
    const prepared = strategy.prepare(messages);
    for (const share of SHARES) {
      const times = [];
      for (let repetition = 0; repetition <= repetitions; repetition++) {
        const run = prepared.arm(Math.floor(total * share), true);
        const started = performance.now();
        await run();
        if (repetition > 0) times.push(performance.now() - started);
      }
      perShare.get(share).push(median(times));
    }
  }
  row('LangChain trimMessages, cached counter', new Map([...perShare].map(([share, times]) => [share, median(times)])));
}

/** One call in this process, nothing before it but reading the file and loading the tokenizer's tables. */
async function first(file, limit) {
  const messages = await read(file);
  tokenizer.countTokens('load the tables');
  const { ms } = await timed(messages, limit, new TokenCounter(tokenizer));
  console.log(JSON.stringify({ ms }));
}

async function processes(files) {
  const { execFileSync } = await import('node:child_process');
  const perShare = new Map(SHARES.map((share) => [share, []]));
  for (const file of files) {
    const total = counter().countMessages(await read(file));
    for (const share of SHARES) {
      const limit = String(Math.floor(total * share));
      const output = execFileSync(process.execPath, [fileURLToPath(import.meta.url), 'first', file, limit], { env: process.env, encoding: 'utf8' });
      perShare.get(share).push(JSON.parse(output.trim().split('\n').at(-1)).ms);
    }
  }
  row('cold process, first call (fresh counter)', new Map([...perShare].map(([share, times]) => [share, median(times)])));
}

async function profile(files) {
  const largest = files.reduce((best, file) => (statSync(file).size > statSync(best).size ? file : best));
  const messages = await read(largest);
  const total = counter().countMessages(messages);
  // The first call at each budget fills the caches; with FOLD_PROFILE=file, only the calls after it are profiled.
  for (const share of SHARES) await timed(messages, Math.floor(total * share), counter(messages));
  const out = process.env.FOLD_PROFILE;
  const session = out ? new (await import('node:inspector')).Session() : undefined;
  const post = (method, params) => new Promise((done, fail) => session.post(method, params, (error, result) => (error ? fail(error) : done(result))));
  if (session) {
    session.connect();
    await post('Profiler.enable');
    await post('Profiler.start');
  }
  for (const share of SHARES) for (let repetition = 0; repetition < 20; repetition++) await timed(messages, Math.floor(total * share), counter(messages));
  if (session) {
    const { profile } = await post('Profiler.stop');
    (await import('node:fs')).writeFileSync(out, JSON.stringify(profile));
  }
  console.log(`profiled ${largest}`);
}

const [mode = 'all', repetitions = '7', limit] = process.argv.slice(2);
if (mode === 'first') {
  await first(repetitions, Number(limit));
  process.exit(0);
}
const files = trajectories();
console.log(`${files.length} SWE-agent trajectories, ${repetitions} repetitions`);
const count = Number(repetitions);
if (mode === 'profile') await profile(files);
if (mode === 'process' || mode === 'all') await processes(files);
if (mode === 'cold' || mode === 'all') await cold(files);
if (mode === 'warm' || mode === 'all') await warm(files, count);
if (mode === 'fresh' || mode === 'all') await fresh(files, count);
if (mode === 'live' || mode === 'all') await live(files, count);
if (mode === 'langchain' || mode === 'all') await langchain(files, count);
