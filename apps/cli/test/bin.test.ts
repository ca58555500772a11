import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturesPresent, repositoryRoot, sweAgentFixture } from './fixture-paths.js';
import { temporaryFolder } from './run-ollm.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const built = existsSync(bin);
if (!built) {
  console.warn(`Skipping the built-binary tests: ${bin} is missing. Run \`pnpm turbo run build --filter @ollm/cli...\` (the root \`pnpm test\` builds first).`);
}

describe.skipIf(!built)('the built ollm binary (dist/bin.js)', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  beforeAll(() => {
    folder = temporaryFolder();
  });
  afterAll(() => folder.remove());

  const ollm = (args: string[], cwd = repositoryRoot) =>
    spawnSync(process.execPath, [bin, ...args], {
      cwd,
      env: { ...process.env, OLLM_HOME: join(folder.path, 'home') },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });

  it('prints its version and exits 0', () => {
    const run = ollm(['--version']);
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe((JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version);
  });

  it.each([['--help'], ['--version']])('answers %s without loading @ollm/* (the runtime, model clients, plugins)', (flag) => {
    // A module hook records every module the binary resolves.
    const log = join(folder.path, `modules${flag}.txt`);
    const hooks = join(folder.path, 'record-modules.mjs');
    writeFileSync(
      hooks,
      `import { appendFileSync } from 'node:fs';\nexport async function resolve(specifier, context, next) {\n  const resolved = await next(specifier, context);\n  appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n');\n  return resolved;\n}\n`,
    );
    const register = join(folder.path, 'register.mjs');
    writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const run = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, bin, flag], { cwd: repositoryRoot, encoding: 'utf8' });
    expect(run.status).toBe(0);
    const modules = readFileSync(log, 'utf8').trim().split('\n');
    // The build bundles the CLI: run-cli is a chunk of its own, and so is each command.
    expect(modules.some((url) => /\/apps\/cli\/dist\/chunk-run-cli-[\w-]+\.js$/.test(url))).toBe(true);
    expect(modules.filter((url) => /\/(packages|plugins)\/|@ollm|\/commands\/|-command-[\w-]+\.js$/.test(url))).toEqual([]);
  });

  it('exits 2 with one line for a missing file', () => {
    const run = ollm(['digest', 'no-such-file.json']);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('ollm: no-such-file.json: no such file\n');
  });

  it('exits 2 with a suggestion for a mistyped command', () => {
    const run = ollm(['compcat']);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe("ollm: unknown command 'compcat' (did you mean compact?)\n");
  });

  it('discovers the bundled plugins', () => {
    const run = ollm(['providers', '--json']);
    expect(run.status).toBe(0);
    const names = (JSON.parse(run.stdout) as { providers: { name: string; package: string }[] }).providers.map(
      (provider) => `${provider.name} ${provider.package}`,
    );
    expect(names).toContain('trim @ollm/plugin-trim');
  });

  it('finds its own plugins when run outside any project (through its own package.json)', () => {
    const run = ollm(['providers', '--json'], folder.path);
    expect(run.status).toBe(0);
    const packages = (JSON.parse(run.stdout) as { providers: { package: string }[] }).providers.map((provider) => provider.package);
    expect(packages).toContain('@ollm/plugin-trim');
  });

  it('writes all of a large transcript to a pipe whose reader is slow, then exits 0', async () => {
    // ~3 MB of OpenAI chat messages: far more than a pipe holds, so the binary waits on its reader.
    const messages: unknown[] = [{ role: 'system', content: 'You are a coding agent.' }];
    for (let turn = 0; turn < 60; turn += 1) {
      messages.push({ role: 'user', content: `Step ${turn}: look at module ${turn}.` });
      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: [{ id: `call_${turn}`, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: `cat src/module_${turn}.py` }) } }],
      });
      messages.push({
        role: 'tool',
        tool_call_id: `call_${turn}`,
        content: Array.from({ length: 1_000 }, (_, line) => `def function_${turn}_${line}(value): return value * ${line}`).join('\n'),
      });
    }
    const input = join(folder.path, 'large.json');
    writeFileSync(input, JSON.stringify(messages));
    const expected = join(folder.path, 'large-compacted.json');
    expect(ollm(['compact', input, '--provider', 'trim', '--limit', '90%', '--out', expected]).status).toBe(0);

    const child = spawn(process.execPath, [bin, 'compact', input, '--provider', 'trim', '--limit', '90%', '--out', '-'], {
      cwd: repositoryRoot,
      env: { ...process.env, OLLM_HOME: join(folder.path, 'home') },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    child.stdout.pause();
    // Not read until the binary has written as much as the pipe takes and waits on the rest.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stdout.resume();
    expect(await exited).toBe(0);
    const written = Buffer.concat(chunks).toString('utf8');
    expect(written.length).toBeGreaterThan(1_000_000);
    expect(written).toBe(readFileSync(expected, 'utf8'));
  });

  it.skipIf(!fixturesPresent)('compacts a real transcript with the default provider (fold) to a pipe, flushing all of it', () => {
    const run = ollm(['compact', sweAgentFixture]);
    expect(run.status).toBe(0);
    // Other workspace plugins that are not built may add warning lines; the summary is the last line.
    expect(run.stderr.trimEnd().split('\n').at(-2)).toMatch(/^fold: 18,553 -> [\d,]+ tokens \(-\d+\.\d%\), \d+ pieces saved under .+$/);
    expect(run.stderr.trimEnd().split('\n').at(-1)).toMatch(
      /^recover one: ollm recover [0-9a-f]{12} \(also [0-9a-f]{12}, [0-9a-f]{12}; --json lists all \d+\)$/,
    );
    const document = JSON.parse(run.stdout) as { instance_id: string; messages: unknown[] };
    expect(document.instance_id).toBe('django__django-11999');
    // The system message and the task stay first, word for word; the newest turns stay whole; older ones are one digest.
    const original = JSON.parse(readFileSync(sweAgentFixture, 'utf8')) as { messages: unknown[] };
    expect(document.messages.slice(0, 2)).toEqual(original.messages.slice(0, 2));
    expect(document.messages.length).toBeLessThan(120);
    expect(document.messages.at(-1)).toEqual(original.messages.at(-1));
  });
});
