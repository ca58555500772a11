/**
 * code-aware's speed on the SWE-agent trajectories (`fixtures/swe-agent-django` and
 * `../shared/fixtures/swe-agent-django`, by file name), alone and in the pipeline
 * `mask,code-aware,trim`, at 50% of each transcript's tokens. Runs the built `dist` folders
 * (`npx tsc -p plugins/code-aware/tsconfig.build.json`; mask, trim, core and transcripts built). From the repo root:
 *
 *   node plugins/code-aware/bench/code-aware-speed.mjs [warm|fresh|turn|cold|profile] [--code-aware DIST] [--counts-by-content]
 *   node --cpu-prof --cpu-prof-dir=/tmp/code-aware-prof plugins/code-aware/bench/code-aware-speed.mjs profile
 *
 * - warm: each transcript parsed once, compacted 10 times through `compactWith` (a new counter
 *   each time that has counted the messages, as a live session's ledger has); the median of the
 *   last 9, then the median over transcripts. Wall and CPU milliseconds.
 * - fresh: the same, each call on a fresh parse of the file (new objects, the same strings).
 * - turn: the conversation without its last turn compacted first, then the whole one (fresh
 *   parse): the second call is timed.
 * - cold: one new process per transcript, its first call timed (grammars and tables loaded then).
 * - profile: the largest transcript, warm, 50 times (for `--cpu-prof`).
 * `--code-aware DIST` runs another build of code-aware (a saved copy of an earlier `dist`) against
 * the same core, mask and trim. `--counts-by-content` counts tokens through a content-keyed memo,
 * so that what remains is code-aware's own work and the host's.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..', '..');
const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const mode = args.find((arg) => !arg.startsWith('--') && arg !== option('--code-aware') && arg !== option('--only')) ?? 'warm';
const codeAwareDist = resolve(option('--code-aware') ?? join(here, '..', 'dist'));

const { TokenCounter, compactWith, createTokenizer, createPipelineProvider } = await import(pathToFileURL(join(root, 'packages/core/dist/index.js')).href);
const { parseTranscript } = await import(pathToFileURL(join(root, 'packages/transcripts/dist/index.js')).href);
const mask = (await import(pathToFileURL(join(root, 'plugins/mask/dist/index.js')).href)).default;
const trim = (await import(pathToFileURL(join(root, 'plugins/trim/dist/index.js')).href)).default;
const codeAware = (await import(pathToFileURL(join(codeAwareDist, 'index.js')).href)).default;

const plain = createTokenizer('o200k_base');
const remembered = new Map();
const tokenizer = args.includes('--counts-by-content')
  ? {
      ...plain,
      countTokens(text) {
        let count = remembered.get(text);
        if (count === undefined) {
          count = plain.countTokens(text);
          remembered.set(text, count);
        }
        return count;
      },
    }
  : plain;

const files = new Map();
for (const folder of [join(root, 'fixtures', 'swe-agent-django'), join(root, '..', 'shared', 'fixtures', 'swe-agent-django')]) {
  if (existsSync(folder)) for (const name of readdirSync(folder)) if (name.endsWith('.traj.json')) files.set(name, join(folder, name));
}
const names = [...files.keys()].sort();
const providers = { 'code-aware': codeAware, 'mask,code-aware,trim': createPipelineProvider([mask, codeAware, trim]) };
const only = option('--only');

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const parse = (name, text) => parseTranscript(text, { file: name, format: 'swe-agent' }).conversations[0].messages;
const cpuNow = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

async function timed(provider, messages, limit, tokens) {
  const wall = performance.now();
  const cpu = cpuNow();
  const result = await compactWith(provider, messages, { config: { limit }, context: { tokens } });
  return { wall: performance.now() - wall, cpu: cpuNow() - cpu, result };
}

function warmCounter(messages) {
  const tokens = new TokenCounter(tokenizer);
  tokens.countMessages(messages);
  return tokens;
}

if (mode === 'cold' && option('--file')) {
  const name = option('--file');
  const messages = parse(name, readFileSync(files.get(name), 'utf8'));
  const limit = Math.floor(new TokenCounter(plain).countMessages(messages) * 0.5);
  const { wall, cpu } = await timed(providers[option('--provider')], messages, limit, new TokenCounter(tokenizer));
  console.log(JSON.stringify({ wall, cpu }));
} else if (mode === 'cold') {
  for (const [providerName] of Object.entries(providers)) {
    if (only && providerName !== only) continue;
    const runs = names.map((name) => {
      const passed = ['--file', name, '--provider', providerName, ...(option('--code-aware') ? ['--code-aware', codeAwareDist] : [])];
      return JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), 'cold', ...passed], { encoding: 'utf8' }));
    });
    console.log(
      `${providerName.padEnd(22)} cold first call: median ${median(runs.map((run) => run.wall)).toFixed(1)} ms wall, ${median(runs.map((run) => run.cpu)).toFixed(1)} ms CPU over ${runs.length} transcripts`,
    );
  }
} else if (mode === 'profile') {
  const name = 'django__django-13265.traj.json';
  const messages = parse(name, readFileSync(files.get(name), 'utf8'));
  const limit = Math.floor(new TokenCounter(plain).countMessages(messages) * 0.5);
  for (const provider of Object.values(providers)) for (let run = 0; run < 50; run++) await timed(provider, messages, limit, warmCounter(messages));
} else {
  for (const [providerName, provider] of Object.entries(providers)) {
    if (only && providerName !== only) continue;
    const perTranscript = [];
    for (const name of names) {
      const text = readFileSync(files.get(name), 'utf8');
      const messages = parse(name, text);
      const limit = Math.floor(new TokenCounter(plain).countMessages(messages) * 0.5);
      const walls = [];
      const cpus = [];
      for (let run = 0; run < 10; run++) {
        let input = messages;
        if (mode === 'fresh' || mode === 'turn') input = parse(name, text);
        const tokens = warmCounter(input);
        if (mode === 'turn') {
          const shorter = input.slice(0, -2);
          await compactWith(provider, shorter, { config: { limit: Math.floor(tokens.countMessages(shorter) * 0.5) }, context: { tokens } });
        }
        const { wall, cpu } = await timed(provider, input, limit, tokens);
        walls.push(wall);
        cpus.push(cpu);
      }
      perTranscript.push({ name, wall: median(walls.slice(1)), cpu: median(cpus.slice(1)) });
    }
    const wall = median(perTranscript.map((entry) => entry.wall));
    const cpu = median(perTranscript.map((entry) => entry.cpu));
    console.log(
      `${providerName.padEnd(22)} ${mode}: median ${wall.toFixed(2)} ms wall, ${cpu.toFixed(2)} ms CPU per transcript (${perTranscript.length} transcripts)`,
    );
  }
}
