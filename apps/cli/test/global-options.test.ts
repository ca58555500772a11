import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runOllm } from './run-ollm.js';

const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe('ollm global options', () => {
  it('prints the version from package.json', async () => {
    const run = await runOllm(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(version);
  });

  it('lists every command in --help, with exit codes', async () => {
    const run = await runOllm(['--help']);
    expect(run.code).toBe(0);
    for (const command of ['digest', 'stats', 'providers', 'compact', 'recover']) expect(run.stdout).toContain(command);
    expect(run.stdout).toContain('--no-plugins');
    expect(run.stdout).toContain('Exit codes');
  });

  it('gives every command its own help with examples', async () => {
    for (const command of ['digest', 'stats', 'providers', 'compact', 'recover']) {
      const run = await runOllm([command, '--help']);
      expect(run.code, command).toBe(0);
      expect(run.stdout, command).toContain(`Usage: ollm ${command}`);
      expect(run.stdout, command).toContain('Examples:');
    }
  });

  it('suggests the closest command for a typo, on one line, exit 2', async () => {
    const run = await runOllm(['digets', 'x.json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("ollm: unknown command 'digets' (did you mean digest?)\n");
  });

  it('rejects an unknown option with exit 2', async () => {
    const run = await runOllm(['stats', 'x.json', '--bogus']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("ollm: unknown option '--bogus'\n");
  });

  it('starts the chat when no command is given (no model server here: one line, exit 3)', async () => {
    const run = await runOllm([], { env: { OLLM_HOST: 'http://127.0.0.1:9' } });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^ollm: No Ollama server at http:\/\/127\.0\.0\.1:9 [^\n]*\n$/);
    expect(run.stdout).toBe('');
  });
});

describe('colour', () => {
  it('marks errors in red on a terminal, and not with NO_COLOR or in a pipe', async () => {
    const terminal = await runOllm(['nope'], { isTTY: true });
    expect(terminal.stderr.startsWith('\x1b[31mollm:\x1b[39m ')).toBe(true);
    expect((await runOllm(['nope'], { isTTY: true, env: { NO_COLOR: '1' } })).stderr.startsWith('ollm: ')).toBe(true);
    expect((await runOllm(['nope'])).stderr.startsWith('ollm: ')).toBe(true);
  });

  it('has none with --no-color (anywhere on the line), FORCE_COLOR=0 or TERM=dumb, and some with FORCE_COLOR=1 in a pipe', async () => {
    for (const run of [
      await runOllm(['--no-color', 'nope'], { isTTY: true }),
      await runOllm(['digest', 'missing.json', '--no-color'], { isTTY: true }),
      await runOllm(['nope'], { isTTY: true, env: { FORCE_COLOR: '0' } }),
      await runOllm(['nope'], { isTTY: true, env: { TERM: 'dumb' } }),
    ]) {
      expect(run.stderr.startsWith('ollm: ')).toBe(true);
      expect(run.stderr).not.toContain('\x1b[');
    }
    expect((await runOllm(['digest', 'missing.json', '--no-color'])).stderr).toBe('ollm: missing.json: no such file\n');
    expect((await runOllm(['nope'], { env: { FORCE_COLOR: '1' } })).stderr.startsWith('\x1b[31mollm:\x1b[39m ')).toBe(true);
  });
});
