import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { runOllm, temporaryFolder } from './run-ollm.js';

const SMALL = { name: 'small:4k', family: 'llama', parameterSize: '8.0B', contextLength: 4096 };

let fake: FakeModelServer | undefined;
const folders: { remove: () => void }[] = [];
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  for (const folder of folders.splice(0)) folder.remove();
});

/**
 * A stand-in `claude` on PATH: it sends what Claude Code sends (a 32,000-token reply limit, a long
 * history) to $ANTHROPIC_BASE_URL and writes what it saw to $AGENT_OUT.
 */
function fakeClaude(folder: string): void {
  const script = `#!/usr/bin/env node
const history = [];
for (let turn = 0; turn < 40; turn += 1) {
  history.push({ role: 'user', content: 'Turn ' + turn + ': ' + 'read src/module-' + turn + '.ts and say what handler_' + turn + ' returns. '.repeat(16) });
  history.push({ role: 'assistant', content: 'It returns ' + turn + '. '.repeat(20) });
}
history.push({ role: 'user', content: 'MARKER-7731: what did module 3 say?' });
const response = await fetch(process.env.ANTHROPIC_BASE_URL + '/v1/messages', {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-api-key': process.env.ANTHROPIC_AUTH_TOKEN },
  body: JSON.stringify({ model: process.argv[3], max_tokens: 32000, system: 'You are Claude Code.', messages: history }),
});
const body = await response.json();
require('node:fs').writeFileSync(process.env.AGENT_OUT, JSON.stringify({ status: response.status, context: response.headers.get('x-ollm-context'), argv: process.argv.slice(2), body }));
process.exit(Number(process.env.AGENT_EXIT ?? 0));
`;
  const path = join(folder, 'claude');
  writeFileSync(path, script.replace("require('node:fs').writeFileSync", "(await import('node:fs')).writeFileSync"));
  chmodSync(path, 0o755);
}

describe('ollm launch', () => {
  it('runs the agent through ollm serve on a free port: its 32,000-token request fits the window, its arguments come after the model', async () => {
    fake = await startFakeModelServer({ models: [SMALL], enforceWindow: true });
    const home = temporaryFolder();
    const bin = temporaryFolder();
    folders.push(home, bin);
    fakeClaude(bin.path);
    const out = join(home.path, 'agent.json');
    const env = { PATH: `${bin.path}:${process.env['PATH'] ?? ''}`, OLLM_HOME: home.path, HOME: home.path, AGENT_OUT: out };
    const run = await runOllm(['launch', 'claude', '--upstream', fake.url, '--model', SMALL.name, '--', '--print', 'hello'], { env });
    expect(run.stderr).toMatch(
      /^ollm launch: claude through ollm serve on http:\/\/127\.0\.0\.1:\d+ -> http:\/\/127\.0\.0\.1:\d+ \(ollama\) · pipeline fold · store files\n/,
    );
    expect(run.stderr).toMatch(/ollm launch: claude exited with 0; the proxy is stopped\n$/);
    expect(run.code).toBe(0);
    const seen = JSON.parse(readFileSync(out, 'utf8')) as { status: number; context: string; argv: string[] };
    expect(seen.status).toBe(200);
    expect(seen.context).toMatch(/^compacted; .*reply-limit=32000->\d+/);
    expect(seen.argv).toEqual(['--model', SMALL.name, '--print', 'hello']);
    const sent = fake.requests.find((request) => request.path === '/v1/messages')!;
    expect(sent.promptTokens + sent.maxTokens!).toBeLessThanOrEqual(4096);
    expect(JSON.stringify(sent.body)).toContain('MARKER-7731');
  });

  it('fails with the agent, naming it; an unknown or missing agent is a clear error', async () => {
    fake = await startFakeModelServer({ models: [SMALL] });
    const home = temporaryFolder();
    const bin = temporaryFolder();
    folders.push(home, bin);
    fakeClaude(bin.path);
    const env = {
      PATH: `${bin.path}:${process.env['PATH'] ?? ''}`,
      OLLM_HOME: home.path,
      HOME: home.path,
      AGENT_OUT: join(home.path, 'a.json'),
      AGENT_EXIT: '3',
    };
    const failed = await runOllm(['launch', 'claude', '--upstream', fake.url], { env });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/ollm: claude exited with 3\n$/);
    const unknown = await runOllm(['launch', 'emacs', '--upstream', fake.url], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown agent "emacs". Agents: claude, codex, opencode, cline, pi.');
    const missing = await runOllm(['launch', 'pi', '--upstream', fake.url, '--model', SMALL.name], { env: { ...env, PATH: '/nonexistent' } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('pi is not installed (not found on PATH)');
  });

  it('points each agent at the proxy as it reads a base URL: codex by -c overrides, opencode by OPENCODE_CONFIG_CONTENT, cline and pi by files of the run, removed after', async () => {
    fake = await startFakeModelServer({ models: [SMALL] });
    const home = temporaryFolder();
    const bin = temporaryFolder();
    folders.push(home, bin);
    // A stand-in for every agent: it writes its argv, the variables it reads and the files it is given to $AGENT_OUT.
    const recorder = `#!/usr/bin/env node
const { readFileSync, writeFileSync } = await import('node:fs');
const argv = process.argv.slice(2);
const after = (flag) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
const dataDir = after('--data-dir');
const extension = after('-e');
writeFileSync(process.env.AGENT_OUT, JSON.stringify({
  argv,
  env: { ANTHROPIC_BASE_URL: process.env.ANTHROPIC_BASE_URL, ANTHROPIC_DEFAULT_HAIKU_MODEL: process.env.ANTHROPIC_DEFAULT_HAIKU_MODEL, OPENCODE_CONFIG_CONTENT: process.env.OPENCODE_CONFIG_CONTENT },
  providers: dataDir ? JSON.parse(readFileSync(dataDir + '/settings/providers.json', 'utf8')) : undefined,
  extension: extension ? readFileSync(extension, 'utf8') : undefined,
}));
`;
    for (const name of ['claude', 'codex', 'opencode', 'cline', 'pi']) {
      writeFileSync(join(bin.path, name), recorder);
      chmodSync(join(bin.path, name), 0o755);
    }
    const out = join(home.path, 'agent.json');
    const env = { PATH: `${bin.path}:${process.env['PATH'] ?? ''}`, OLLM_HOME: home.path, HOME: home.path, AGENT_OUT: out };
    type Seen = { argv: string[]; env: Record<string, string | undefined>; providers?: any; extension?: string };
    const launch = async (agent: string, ...rest: string[]) => {
      const run = await runOllm(['launch', agent, '--upstream', fake!.url, '--model', SMALL.name, '--', ...rest], { env });
      expect(run.code, run.stderr).toBe(0);
      const url = /through ollm serve on (http:\/\/127\.0\.0\.1:\d+)/.exec(run.stderr)![1]!;
      return { url, seen: JSON.parse(readFileSync(out, 'utf8')) as Seen };
    };

    const claude = await launch('claude', '-p', 'hi');
    expect(claude.seen.env['ANTHROPIC_BASE_URL']).toBe(claude.url);
    expect(claude.seen.env['ANTHROPIC_DEFAULT_HAIKU_MODEL']).toBe(SMALL.name);
    expect(claude.seen.argv).toEqual(['--model', SMALL.name, '-p', 'hi']);

    const codex = await launch('codex', 'exec', 'fix it');
    expect(codex.seen.argv).toEqual([
      '-c',
      'model_provider="ollm"',
      '-c',
      'model_providers.ollm.name="ollm serve"',
      '-c',
      `model_providers.ollm.base_url="${codex.url}/v1"`,
      '-c',
      'model_providers.ollm.wire_api="responses"',
      '-c',
      `model="${SMALL.name}"`,
      'exec',
      'fix it',
    ]);

    const opencode = await launch('opencode', 'run', 'fix it');
    expect(opencode.seen.argv).toEqual(['run', 'fix it']);
    const config = JSON.parse(opencode.seen.env['OPENCODE_CONFIG_CONTENT']!) as {
      model: string;
      provider: { ollm: { npm: string; options: { baseURL: string }; models: Record<string, unknown> } };
    };
    expect(config.model).toBe(`ollm/${SMALL.name}`);
    expect(config.provider.ollm.npm).toBe('@ai-sdk/openai-compatible');
    expect(config.provider.ollm.options.baseURL).toBe(`${opencode.url}/v1`);
    expect(Object.keys(config.provider.ollm.models)).toEqual([SMALL.name]);

    // In front of Ollama: Cline's Ollama provider (/api/chat) at the proxy's origin.
    const cline = await launch('cline', '--yolo', 'fix it');
    const dataDir = cline.seen.argv[1]!;
    expect(cline.seen.argv).toEqual(['--data-dir', dataDir, '-P', 'ollama', '-m', SMALL.name, '--yolo', 'fix it']);
    expect(cline.seen.providers.providers.ollama.settings).toMatchObject({ provider: 'ollama', model: SMALL.name, baseUrl: cline.url });
    expect(existsSync(dataDir)).toBe(false);

    const pi = await launch('pi', '-p', 'fix it');
    const extension = pi.seen.argv[1]!;
    expect(pi.seen.argv).toEqual(['-e', extension, '--provider', 'ollm', '--model', SMALL.name, '-p', 'fix it']);
    expect(pi.seen.extension).toContain(`pi.registerProvider('ollm', `);
    expect(pi.seen.extension).toContain(`"baseUrl":"${pi.url}/v1"`);
    expect(pi.seen.extension).toContain('"api":"openai-completions"');
    expect(existsSync(extension)).toBe(false);

    // In front of an OpenAI-compatible server (llama.cpp): Cline's OpenAI-compatible provider at /v1.
    const run = await runOllm(['launch', 'cline', '--upstream', `${fake.url}/v1`, '--model', SMALL.name, '--', 'fix it'], { env });
    expect(run.code, run.stderr).toBe(0);
    const openai = JSON.parse(readFileSync(out, 'utf8')) as Seen;
    const url = /through ollm serve on (http:\/\/127\.0\.0\.1:\d+)/.exec(run.stderr)![1]!;
    expect(openai.providers.providers['openai-compatible'].settings).toMatchObject({ provider: 'openai-compatible', baseUrl: `${url}/v1` });

    // opencode, cline and pi are pointed at a model by its name: without --model, a clear error.
    const unnamed = await runOllm(['launch', 'opencode', '--upstream', fake.url], { env });
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain("opencode needs --model: the model's name on the upstream");
  });
});
