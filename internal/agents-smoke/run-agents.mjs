#!/usr/bin/env node
// `pnpm agents-smoke`: runs real coding agents (installed outside the repo, in $OLLM_AGENTS_DIR,
// default /tmp/ollm-agents: `npm i --prefix /tmp/ollm-agents @anthropic-ai/claude-code
// @openai/codex opencode-ai cline @mariozechner/pi-coding-agent`) at their default settings
// against the scripted model (scripted-model.mjs), directly and through `ollm serve`, at each
// window and upstream mode, and prints a table. Opt-in, not in CI.
//
//   node internal/agents-smoke/run-agents.mjs [--agents claude,codex] [--windows 16384,32768]
//     [--modes ollama,llamacpp] [--routes direct,ollm,launch] [--prefix-run] [--prefix-window 16384]
//     [--prefix-mode llamacpp] [--no-own-compaction] [--no-matrix] [--timeout 300] [--out FILE]
//
// Routes: direct (the agent at the scripted model), ollm (the agent at `ollm serve --window W` in
// front of it, with the proxy's log read), launch (`ollm launch <agent> --window W --model ...`).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENTS, MODEL, QUIET_ENV } from './agents.mjs';
import { countTokens, pad, startScriptedModel } from './scripted-model.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const cli = join(repo, 'apps/cli/dist/bin.js');
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const index = argv.indexOf(`--${name}`);
  return index >= 0 ? argv[index + 1] : fallback;
};
const flag = (name) => argv.includes(`--${name}`);
const agentsDir = process.env.OLLM_AGENTS_DIR ?? '/tmp/ollm-agents';
const samplesDir = process.env.AGENTS_SMOKE_SAMPLES ?? '/tmp/agents-smoke-samples';
const runsDir = process.env.AGENTS_SMOKE_RUNS ?? '/tmp/agents-smoke-runs';
const agentNames = option('agents', Object.keys(AGENTS).join(',')).split(',');
const windows = option('windows', '16384,32768').split(',').map(Number);
const modes = option('modes', 'ollama,llamacpp').split(',');
const routes = option('routes', 'direct,ollm').split(',');
const timeoutSeconds = Number(option('timeout', '300'));
const prefixRun = flag('prefix-run');
const prefixWindow = Number(option('prefix-window', '16384'));
// --no-own-compaction: the 40-step run through ollm only (Claude Code's own compaction has no setting below 100K).
const ownCompaction = !flag('no-own-compaction');
const matrix = !flag('no-matrix');
mkdirSync(samplesDir, { recursive: true });
mkdirSync(runsDir, { recursive: true });

const binaryOf = (agent) => join(agentsDir, 'node_modules/.bin', agent.binary);
const versionOf = (agent) => {
  try {
    return JSON.parse(readFileSync(join(agentsDir, 'node_modules', agent.packageName, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
};

/** f01..fNN of about 2,400 o200k tokens each, their first line `[[read:fNN]]`. */
function writeTask(workdir, files) {
  const words = [
    'alpha',
    'parser',
    'window',
    'token',
    'buffer',
    'handler',
    'request',
    'compact',
    'stream',
    'module',
    'return',
    'value',
    'index',
    'cache',
    'prefix',
  ];
  for (let n = 1; n <= files; n += 1) {
    const lines = [`[[read:f${pad(n)}]]`];
    let seed = n * 7919;
    let text = '';
    for (let line = 0; countTokens(text) < 2380; line += 1) {
      const row = [];
      for (let w = 0; w < 12; w += 1) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        row.push(`${words[seed % words.length]}${seed % 97}`);
      }
      lines.push(`line ${line} of f${pad(n)}: ${row.join(' ')}`);
      text = lines.join('\n');
    }
    writeFileSync(join(workdir, `f${pad(n)}`), `${text}\n`);
  }
}

/** Starts `ollm serve --port 0` in front of the scripted model; resolves with its URL and log. */
async function startProxy(upstream, mode, window, home) {
  const api = mode === 'ollama' ? ['--upstream', upstream, '--api', 'ollama'] : ['--upstream', `${upstream}/v1`, '--api', 'openai'];
  const child = spawn(process.execPath, [cli, 'serve', ...api, '--port', '0', '--window', String(window)], {
    env: { ...process.env, OLLM_HOME: join(home, '.ollm'), HOME: home, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = [];
  let buffer = '';
  const url = await new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`ollm serve did not start: ${log.join('\n')}`)), 20_000);
    const onData = (chunk) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop();
      for (const line of lines) {
        log.push(line);
        const match = /listening on (http:\/\/\S+)/.exec(line);
        if (match) {
          clearTimeout(timer);
          resolvePromise(match[1]);
        }
      }
    };
    child.stderr.on('data', onData);
    child.stdout.on('data', onData);
    child.on('exit', (code) => reject(new Error(`ollm serve exited with ${code}: ${log.join('\n')}`)));
  });
  return {
    url,
    log,
    close: () =>
      new Promise((resolvePromise) => {
        child.removeAllListeners('exit');
        child.on('exit', () => resolvePromise());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

function runProcess(command, args, { env, cwd, timeoutMs }) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolvePromise({ code: -1, stdout, stderr: `${stderr}\n${error}`, timedOut });
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      // Kill what the agent left behind (language servers, hub daemons) in its process group.
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
      resolvePromise({ code: code ?? (signal ? 128 : 1), stdout, stderr, timedOut });
    });
  });
}

/** For consecutive main-loop requests: the share of the later prompt's tokens that is a byte-identical prefix of the earlier one's. */
export function prefixShares(texts) {
  const shares = [];
  let reprocessed = 0;
  for (let i = 1; i < texts.length; i += 1) {
    const a = texts[i - 1];
    const b = texts[i];
    let n = 0;
    const limit = Math.min(a.length, b.length);
    while (n < limit && a.charCodeAt(n) === b.charCodeAt(n)) n += 1;
    const total = countTokens(b);
    const shared = countTokens(b.slice(0, n));
    shares.push(total === 0 ? 1 : shared / total);
    reprocessed += Math.max(0, total - shared);
  }
  const sorted = [...shares].sort((x, y) => x - y);
  const median =
    sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  const mean = shares.length === 0 ? NaN : shares.reduce((x, y) => x + y, 0) / shares.length;
  return { pairs: shares.length, median, mean, reprocessed, reprocessedPerTurn: shares.length ? reprocessed / shares.length : NaN };
}

async function runOne({ name, window, mode, route, steps = window <= 16384 ? 10 : 20, ownCompaction = false, label }) {
  const agent = AGENTS[name];
  const id = `${label ?? ''}${name}-${window}-${mode}-${route}${ownCompaction ? '-own' : ''}`;
  const base = mkdtempSync(join(tmpdir(), `agents-smoke-${id}-`));
  const workdir = join(base, 'work');
  const home = join(base, 'home');
  mkdirSync(workdir, { recursive: true });
  mkdirSync(home, { recursive: true });
  writeTask(workdir, steps);
  const marker = `MARKER-${Math.random().toString(36).slice(2, 10).toUpperCase()}`;
  const promptTag = 'read each file with cat';
  const prompt = `Secret marker: ${marker}. In the current directory there are files f01 to f${pad(steps)}. Please read each file with cat, one file per command, in order, then answer with the secret marker word from this message.`;
  const task = { marker, promptTag, steps, cwd: workdir };
  const saved = new Set();
  const samples = (kind, body, every = false) => {
    const key = kind.replace(/-\d+$/, '');
    if (saved.has(key) && !every) return;
    saved.add(key);
    writeFileSync(join(samplesDir, `${id}-${kind}.json`), JSON.stringify(body, null, 2));
  };
  const model = await startScriptedModel({ mode, window, task, samples });
  let proxy;
  const started = Date.now();
  try {
    if (route === 'ollm') proxy = await startProxy(model.url, mode, window, home);
    const root = proxy?.url ?? model.url;
    const env = {
      PATH: `${join(agentsDir, 'node_modules/.bin')}:${process.env.PATH}`,
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local/share'),
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_STATE_HOME: join(home, '.local/state'),
      TMPDIR: base,
      TERM: 'dumb',
      LANG: 'C.UTF-8',
      ...QUIET_ENV,
    };
    // opencode installs its provider package (@ai-sdk/openai-compatible) from npm on first use: share one cache.
    if (name === 'opencode') env.XDG_CACHE_HOME = join(agentsDir, 'cache');
    const context = { root, home, workdir, prompt, window, ownCompaction, mode };
    if (agent.prepare) {
      const prep = agent.prepare(context);
      const done = await runProcess(binaryOf(agent), prep.args, { env: { ...env, ...(prep.env ?? {}) }, cwd: workdir, timeoutMs: 60_000 });
      if (done.code !== 0) console.error(`${id}: prepare exited ${done.code}: ${done.stderr.slice(-500)}`);
    }
    let result;
    if (route === 'launch') {
      // `ollm launch <agent>` sets the base URL and model itself; only the agent's headless flags are given.
      mkdirSync(join(home, '.codex'), { recursive: true });
      const { args, env: agentEnv } = agent.launchArgs(context);
      const upstream = mode === 'ollama' ? ['--upstream', model.url, '--api', 'ollama'] : ['--upstream', `${model.url}/v1`, '--api', 'openai'];
      const launchArgs = [cli, 'launch', name, ...upstream, '--window', String(window), '--model', MODEL, '--', ...args];
      result = await runProcess(process.execPath, launchArgs, {
        env: { ...env, ...agentEnv, OLLM_HOME: join(home, '.ollm') },
        cwd: workdir,
        timeoutMs: timeoutSeconds * 1000,
      });
    } else {
      const { args, env: agentEnv } = agent.command(context);
      result = await runProcess(binaryOf(agent), args, { env: { ...env, ...agentEnv }, cwd: workdir, timeoutMs: timeoutSeconds * 1000 });
    }
    const chats = model.requests.filter((request) => request.protocol);
    const main = chats.filter((request) => request.kind === 'main' || request.kind === 'final');
    const finals = chats.filter((request) => request.kind === 'final');
    const output = `${result.stdout}\n${result.stderr}`;
    const finishedText = `All ${steps} files are read`;
    const log = proxy?.log ?? [];
    const summary = {
      id,
      agent: name,
      version: versionOf(agent),
      window,
      mode,
      route,
      ownCompaction,
      steps,
      seconds: Math.round((Date.now() - started) / 1000),
      exit: result.code,
      timedOut: result.timedOut,
      requests: chats.length,
      mainLoop: main.length,
      side: chats.filter((request) => request.kind === 'side').length,
      summaries: chats.filter((request) => request.kind === 'summary').length,
      over: chats.filter((request) => request.over).length,
      refused: chats.filter((request) => request.refused).length,
      maxPromptTokens: Math.max(0, ...chats.map((request) => request.tokens)),
      toolsTokens: Math.max(0, ...chats.map((request) => request.toolsTokens ?? 0)),
      filesRead: Math.max(0, ...chats.map((request) => request.highest ?? 0)),
      finished: result.code === 0 && finals.length > 0 && output.includes(finishedText) && !result.timedOut,
      markerInAnswer: output.includes(marker) && finals.some((request) => request.hasMarker),
      markerLost: finals.some((request) => !request.hasMarker),
      paths: [...new Set(model.requests.map((request) => request.path))],
      unknownRoutes: model.requests.filter((request) => request.kind === 'unknown-route').map((request) => `${request.method} ${request.path}`),
      proxy: proxy
        ? {
            compacted: log.filter((line) => / compacted \d|tokens \(budget/.test(line) && !/reused the compaction/.test(line)).length,
            reused: log.filter((line) => /reused the compaction/.test(line)).length,
            refused: log.filter((line) => /refused with/.test(line)).length,
            unread: log.filter((line) => /sent as it came/.test(line)).length,
            warnings: log.filter((line) => /warning/.test(line)).length,
          }
        : undefined,
      prefix: prefixShares(main.map((request) => request.text)),
    };
    writeFileSync(
      join(runsDir, `${id}.json`),
      JSON.stringify(
        {
          summary,
          prompt,
          stdout: result.stdout.slice(-20000),
          stderr: result.stderr.slice(-20000),
          proxyLog: log,
          requests: model.requests.map(({ text, reply, ...rest }) => ({ ...rest, reply: reply?.slice(0, 300) })),
        },
        null,
        2,
      ),
    );
    return summary;
  } finally {
    await proxy?.close();
    await model.close();
    if (!flag('keep')) rmSync(base, { recursive: true, force: true });
  }
}

const yes = (value) => (value ? 'yes' : 'no');
const percent = (value) => (Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : '-');

function table(rows) {
  const header = [
    'agent',
    'window',
    'mode',
    'route',
    'requests',
    'over window',
    'refused',
    'finished',
    'marker in answer',
    'files read',
    'agent summaries',
    'proxy compacted/reused/refused',
    'exit',
    's',
  ];
  const lines = [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`];
  for (const row of rows) {
    lines.push(
      `| ${[
        `${row.agent} ${row.version ?? ''}`,
        row.window,
        row.mode,
        row.route,
        row.requests,
        row.over,
        row.refused,
        yes(row.finished),
        yes(row.markerInAnswer) + (row.markerLost ? ' (lost)' : ''),
        `${row.filesRead}/${row.steps}`,
        row.summaries,
        row.proxy ? `${row.proxy.compacted}/${row.proxy.reused}/${row.proxy.refused}` : '-',
        row.timedOut ? 'timeout' : row.exit,
        row.seconds,
      ].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

function prefixTable(rows) {
  const header = [
    'agent',
    'route',
    'own compaction setting',
    'main-loop requests',
    'over window',
    'finished',
    'marker',
    'median prefix share',
    'mean prefix share',
    'tokens processed again (sum)',
    'per turn',
  ];
  const lines = [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`];
  for (const row of rows) {
    lines.push(
      `| ${[
        row.agent,
        row.route,
        row.ownCompaction ? AGENTS[row.agent].ownCompactionSetting(row.window) : 'default',
        row.mainLoop,
        row.over,
        yes(row.finished),
        yes(row.markerInAnswer),
        percent(row.prefix.median),
        percent(row.prefix.mean),
        row.prefix.reprocessed,
        Math.round(row.prefix.reprocessedPerTurn),
      ].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

const present = agentNames.filter((name) => {
  const agent = AGENTS[name];
  if (!agent) throw new Error(`unknown agent ${name}`);
  if (existsSync(binaryOf(agent))) return true;
  console.error(`${name}: not installed in ${agentsDir} (npm i --prefix ${agentsDir} ${agent.packageName}); skipped`);
  return false;
});
if (!existsSync(cli)) throw new Error(`${cli} is missing: run pnpm build first`);

const rows = [];
if (matrix) {
  for (const name of present)
    for (const window of windows)
      for (const mode of modes)
        for (const route of routes) {
          const row = await runOne({ name, window, mode, route });
          rows.push(row);
          console.error(table([row]).split('\n').at(-1));
        }
  console.log(`\n## Agents × window × upstream × route\n\n${table(rows)}\n`);
}
const prefixRows = [];
if (prefixRun) {
  for (const name of present) {
    const agent = AGENTS[name];
    const variants = [
      { route: 'ollm', ownCompaction: false },
      ...(agent.ownCompactionSetting && ownCompaction ? [{ route: 'direct', ownCompaction: true }] : []),
    ];
    for (const variant of variants) {
      const row = await runOne({ name, window: prefixWindow, mode: option('prefix-mode', 'llamacpp'), steps: 40, label: 'p40-', ...variant });
      prefixRows.push(row);
      console.error(prefixTable([row]).split('\n').at(-1));
    }
  }
  console.log(`\n## 40-step run, ${prefixWindow / 1024}K window: shared prefix between consecutive main-loop requests\n\n${prefixTable(prefixRows)}\n`);
}
const out = option('out');
if (out) writeFileSync(out, JSON.stringify({ rows, prefixRows }, null, 2));
