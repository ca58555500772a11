import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
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
    const missing = await runOllm(['launch', 'pi', '--upstream', fake.url], { env: { ...env, PATH: '/nonexistent' } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('pi is not installed (not found on PATH)');
  });
});
