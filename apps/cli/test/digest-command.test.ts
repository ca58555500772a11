import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixturesPresent, sweAgentFixture, tauBenchFixture } from './fixture-paths.js';
import { runOllm, temporaryFolder } from './run-ollm.js';

describe.skipIf(!fixturesPresent)('ollm digest', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  beforeEach(() => {
    folder = temporaryFolder();
  });
  afterEach(() => folder.remove());

  it('prints a sha256 and the file, like sha256sum', async () => {
    const run = await runOllm(['digest', sweAgentFixture]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^[0-9a-f]{64}  ${sweAgentFixture}\\n$`));
  });

  it('reads stdin for -, and prints JSON with --json (the same digest)', async () => {
    const digest = (await runOllm(['digest', sweAgentFixture])).stdout.split(' ')[0];
    const piped = await runOllm(['digest', '-', '--json'], { stdin: readFileSync(sweAgentFixture) });
    expect(piped.code).toBe(0);
    const entries = JSON.parse(piped.stdout) as { file: string; digest: string; messages: number }[];
    expect(entries).toHaveLength(1);
    expect(entries[0]!.file).toBe('-');
    expect(entries[0]!.digest).toBe(digest);
    expect(entries[0]!.messages).toBeGreaterThan(0);
    const stats = await runOllm(['stats', '-', '--json'], { stdin: readFileSync(sweAgentFixture) });
    expect(stats.code).toBe(0);
    expect(JSON.stringify(JSON.parse(stats.stdout))).toBe(
      JSON.stringify(JSON.parse((await runOllm(['stats', sweAgentFixture, '--json'])).stdout)).replaceAll(JSON.stringify(sweAgentFixture), '"-"'),
    );
  });

  it('gives a byte copy the same digest and a one-character change a different one', async () => {
    const copy = join(folder.path, 'copy.traj.json');
    const changed = join(folder.path, 'changed.traj.json');
    copyFileSync(sweAgentFixture, copy);
    const text = readFileSync(sweAgentFixture, 'utf8');
    // The first character of the system prompt: "You are a helpful..." becomes "you are ...".
    const at = text.indexOf('"content": "', text.indexOf('"messages"')) + '"content": "'.length;
    expect(text[at]).toBe('Y');
    writeFileSync(changed, `${text.slice(0, at)}y${text.slice(at + 1)}`);

    const digestOf = async (file: string) => (await runOllm(['digest', file])).stdout.split(' ')[0];
    const original = await digestOf(sweAgentFixture);
    expect(await digestOf(copy)).toBe(original);
    expect(await digestOf(changed)).not.toBe(original);
  });

  it('prints one line per conversation of a tau-bench file, named file#id', async () => {
    const conversations = (JSON.parse(readFileSync(tauBenchFixture, 'utf8')) as unknown[]).length;
    const run = await runOllm(['digest', 'fixtures/tau-bench-airline/gpt-4o-airline.sample.json'], { cwd: join(sweAgentFixture, '../../..') });
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(conversations);
    for (const line of lines) expect(line).toMatch(/^[0-9a-f]{64}  fixtures\/tau-bench-airline\/gpt-4o-airline\.sample\.json#\S+$/);
    expect(new Set(lines.map((line) => line.split(' ')[0])).size).toBe(conversations);
  });

  it('prints only the conversation --conversation names', async () => {
    const all = (await runOllm(['digest', tauBenchFixture])).stdout.trimEnd().split('\n');
    const second = all[1]!;
    const id = second.slice(second.lastIndexOf('#') + 1);
    const run = await runOllm(['digest', tauBenchFixture, '--conversation', id]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${second}\n`);
  });

  it('exits 2 naming the missing conversation', async () => {
    const run = await runOllm(['digest', tauBenchFixture, '--conversation', 'no-such-id']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^ollm: No conversation "no-such-id" in .*\n$/);
  });
});
