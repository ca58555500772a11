import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repositoryRoot } from './fixture-paths.js';
import { runOllm, temporaryFolder } from './run-ollm.js';
import { testRegistry } from './test-providers.js';

const invalidFolder = join(repositoryRoot, 'fixtures/invalid');
const invalidPresent = existsSync(join(invalidFolder, 'malformed.json'));

describe('bad input: exit 2, one line naming file and position, nothing written', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  beforeEach(() => {
    folder = temporaryFolder();
  });
  afterEach(() => folder.remove());

  it('reports malformed JSON with line and column, relative to the working folder', async () => {
    writeFileSync(join(folder.path, 'broken.json'), '[\n  {"role": "user", "content": "hi"},\n  {"role": oops}\n]\n');
    const run = await runOllm(['stats', 'broken.json'], { cwd: folder.path });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^ollm: broken\.json: line 3, column \d+: .+\n$/);
    expect(run.stdout).toBe('');
  });

  it('reports a missing file', async () => {
    const run = await runOllm(['digest', 'nope.json'], { cwd: folder.path });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('ollm: nope.json: no such file\n');
  });

  it('reports a folder given as a file', async () => {
    const run = await runOllm(['digest', '.'], { cwd: folder.path });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^ollm: .+: is a folder, not a file\n$/);
  });

  it('reports non-UTF-8 bytes with their position', async () => {
    writeFileSync(join(folder.path, 'latin1.json'), Buffer.from([0x5b, 0x7b, 0x22, 0x72, 0x6f, 0x6c, 0x65, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d, 0x5d]));
    const run = await runOllm(['stats', 'latin1.json'], { cwd: folder.path });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^ollm: latin1\.json: byte \d+: .*UTF-8.*\n$/);
  });

  it('rejects an unknown --format, listing the formats', async () => {
    writeFileSync(join(folder.path, 'chat.json'), '[{"role": "user", "content": "hi"}]');
    const run = await runOllm(['digest', 'chat.json', '--format', 'yaml'], { cwd: folder.path });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('ollm: Unknown format "yaml". Formats: openai, anthropic, ollama, gptme, swe-agent, tau-bench, swe-agent-classic, ollm-session.\n');
  });

  it('writes nothing to --out when the input is bad', async () => {
    writeFileSync(join(folder.path, 'broken.json'), '{"messages": [');
    const out = join(folder.path, 'out.json');
    writeFileSync(out, 'previous content');
    const run = await runOllm(['compact', 'broken.json', '--out', out, '--provider', 'identity', '--no-plugins'], {
      cwd: folder.path,
      registry: testRegistry(),
    });
    expect(run.code).toBe(2);
    expect(readFileSync(out, 'utf8')).toBe('previous content');
    expect(run.stdout).toBe('');
  });

  it('prints the stack trace only with --debug', async () => {
    const plain = await runOllm(['digest', 'nope.json'], { cwd: folder.path });
    expect(plain.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    const debug = await runOllm(['--debug', 'digest', 'nope.json'], { cwd: folder.path });
    expect(debug.code).toBe(2);
    expect(debug.stderr.split('\n').filter(Boolean).length).toBeGreaterThan(1);
    expect(debug.stderr).toContain('    at ');
  });

  describe.skipIf(!invalidPresent)("the repository's invalid samples", () => {
    const samples = [
      'malformed.json',
      'malformed.jsonl',
      'non-object.json',
      'not-utf8.json',
      'orphan-tool-result.json',
      'unknown-format.json',
      'unknown-role.json',
      'wrong-type.json',
    ];
    it.each(samples)('%s exits 2 with one line naming the file and a position', async (sample) => {
      const run = await runOllm(['stats', `fixtures/invalid/${sample}`], { cwd: repositoryRoot });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`^ollm: fixtures/invalid/${sample.replace('.', '\\.')}: (line|message|byte|conversation) [^\\n]+\\n$`));
      expect(run.stdout).toBe('');
    });
  });
});
