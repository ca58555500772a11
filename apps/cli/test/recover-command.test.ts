import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { saveRemovedContent, sha256Hex } from '@ollm/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixturesPresent, sweAgentFixture } from './fixture-paths.js';
import { runOllm, temporaryFolder } from './run-ollm.js';
import { testRegistry } from './test-providers.js';

describe('ollm recover', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let env: Record<string, string>;
  let home: string;
  beforeEach(() => {
    folder = temporaryFolder();
    home = join(folder.path, 'home');
    env = { OLLM_HOME: home };
  });
  afterEach(() => folder.remove());

  const recover = (args: string[]) => runOllm(['recover', ...args], { cwd: folder.path, env });

  it('prints saved content byte-for-byte by full path, sha256 and prefix', async () => {
    const content = 'line one\r\nsecond ✓ line\n\ttabbed\u0000end';
    const saved = saveRemovedContent(home, content);
    for (const reference of [saved.path, saved.sha256, saved.sha256.slice(0, 8), saved.sha256.slice(0, 12).toUpperCase()]) {
      const run = await recover([reference]);
      expect(run.code, reference).toBe(0);
      expect(run.stdoutBytes.equals(Buffer.from(content, 'utf8')), reference).toBe(true);
    }
  });

  it('prints a saved run of messages as readable messages, and as saved with --json', async () => {
    const run = [
      { id: 'm2', role: 'assistant', parts: [{ type: 'tool-call', callId: 'c1', name: 'bash', input: { command: 'pytest -q' } }] },
      { id: 'm3', role: 'tool', parts: [{ type: 'tool-result', callId: 'c1', output: '1 failed, 4 passed' }] },
    ];
    const content = JSON.stringify(run, null, 1);
    const saved = saveRemovedContent(home, content);
    const readable = await recover([saved.sha256.slice(0, 12)]);
    expect(readable.code).toBe(0);
    expect(readable.stdout).toContain('[tool call bash] {"command":"pytest -q"}');
    expect(readable.stdout).toContain('tool: [tool result] 1 failed, 4 passed');
    expect(readable.stdout).not.toContain('"parts"');
    const json = await recover([saved.sha256.slice(0, 12), '--json']);
    expect(json.stdoutBytes.equals(Buffer.from(content, 'utf8'))).toBe(true);
    // A JSON text that is not a run of messages is printed as it was.
    const other = saveRemovedContent(home, '[1, 2, 3]');
    expect((await recover([other.sha256])).stdout).toBe('[1, 2, 3]');
  });

  it('takes a placeholder pasted as it reads in a compacted conversation', async () => {
    const saved = saveRemovedContent(home, 'the folded output');
    const reference = saved.sha256.slice(0, 12);
    for (const pasted of [`[ollm fold ${reference}]`, `[ollm fold ${reference}] 123 lines`, `  $ cat f06.py [ollm fold ${reference}]\n`]) {
      const run = await recover([pasted]);
      expect(run.code, pasted).toBe(0);
      expect(run.stdout, pasted).toBe('the folded output');
    }
    expect((await recover(['[ollm fold abc]'])).stderr).toMatch(/is not a recovery path .*a placeholder \(\[ollm fold <hex>\]\)/);
  });

  it('reads a placeholder path outside $OLLM_HOME and honours --logdir', async () => {
    const elsewhere = join(folder.path, 'other-logdir');
    const saved = saveRemovedContent(elsewhere, 'elsewhere');
    expect((await recover([saved.path])).stdout).toBe('elsewhere');
    expect((await recover([saved.sha256.slice(0, 10), '--logdir', elsewhere])).stdout).toBe('elsewhere');
    expect((await recover([saved.sha256.slice(0, 10)])).code).toBe(2);
  });

  it('exits 2 for an ambiguous prefix, naming the matches', async () => {
    mkdirSync(join(home, 'removed'), { recursive: true });
    const first = `abcdef01${'0'.repeat(56)}`;
    const second = `abcdef01${'1'.repeat(56)}`;
    writeFileSync(join(home, 'removed', `${first}.txt`), 'a');
    writeFileSync(join(home, 'removed', `${second}.txt`), 'b');
    const run = await recover(['abcdef01']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^ollm: abcdef01 is ambiguous: 2 saved pieces match .*give more digits\.\n$/);
  });

  it.each([
    ['abc123', /too short/],
    ['deadbeefdeadbeef', /Nothing saved under .* starts with deadbeefdeadbeef/],
    ['not-a-reference', /is not a recovery path/],
    [`${'e'.repeat(64)}`, /Nothing saved as e{64}/],
  ])('exits 2 for %s', async (reference, message) => {
    const run = await recover([reference]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('refuses content that no longer matches its sha256 (exit 1)', async () => {
    const saved = saveRemovedContent(home, 'original');
    writeFileSync(saved.path, 'tampered');
    const run = await recover([saved.sha256]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/does not match its sha256/);
    expect(run.stdout).toBe('');
  });

  it.skipIf(!fixturesPresent)('round-trips every piece a compaction removed', async () => {
    const compact = await runOllm(['--no-plugins', 'compact', sweAgentFixture, '--provider', 'placeholder', '--json'], {
      cwd: folder.path,
      env,
      registry: testRegistry(),
    });
    expect(compact.code).toBe(0);
    const report = JSON.parse(compact.stdout) as { removed: { sha256: string; path: string }[] };
    expect(report.removed.length).toBeGreaterThan(0);
    const raw = JSON.parse(readFileSync(sweAgentFixture, 'utf8')) as { messages: { role: string; content: string }[] };
    const toolOutputs = new Set(raw.messages.filter((message) => message.role === 'tool').map((message) => message.content));
    for (const piece of report.removed) {
      const run = await recover([piece.sha256.slice(0, 10)]);
      expect(run.code).toBe(0);
      expect(sha256Hex(run.stdoutBytes)).toBe(piece.sha256);
      // Exactly a tool output of the source file.
      expect(toolOutputs.has(run.stdout)).toBe(true);
    }
  });
});
