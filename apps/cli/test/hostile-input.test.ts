import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runOllm, temporaryFolder } from './run-ollm.js';
import { testRegistry } from './test-providers.js';

/** A chat whose second message carries `value` in an extra field (kept in metadata, written back). */
function chatWith(value: string): string {
  return `[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "ok", "extra": ${value}}]\n`;
}

const nestedArrays = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const nestedObjects = (depth: number): string => '{"a": '.repeat(depth) + '1' + '}'.repeat(depth);

describe('hostile input: bounded work, exit 2 naming the file and position, nothing written', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let env: Record<string, string>;
  beforeEach(() => {
    folder = temporaryFolder();
    env = { OLLM_HOME: join(folder.path, 'home'), HOME: folder.path };
  });
  afterEach(() => folder.remove());

  // The built-in providers (fold, trim) as the binary loads them; `identity` from the test registry.
  const ollm = (args: string[]) =>
    args.includes('identity')
      ? runOllm(['--no-plugins', ...args], { cwd: folder.path, env, registry: testRegistry() })
      : runOllm(args, { cwd: folder.path, env });
  const leftovers = (): string[] => readdirSync(folder.path).filter((name) => name.endsWith('.tmp'));

  describe('nesting', () => {
    it.each([
      ['arrays', 5_000],
      ['arrays', 100_000],
      ['objects', 5_000],
      ['objects', 100_000],
    ])('JSON %s nested %i deep: stats and compact exit 2 at the line and column of the 1,001st level', async (kind, depth) => {
      const value = kind === 'arrays' ? nestedArrays(depth) : nestedObjects(depth);
      writeFileSync(join(folder.path, 'deep.json'), chatWith(value));
      // Levels count from the root: the array is 1, the message 2, so level 1,001 is the value's 999th bracket.
      const valueColumn = chatWith(value).indexOf(value) + 1;
      const column = valueColumn + 998 * (kind === 'arrays' ? 1 : '{"a": '.length);
      const expected = `ollm: deep.json: line 1, column ${column}: JSON nested deeper than 1,000 levels (the limit for a transcript)\n`;
      for (const args of [
        ['stats', 'deep.json'],
        ['compact', 'deep.json', '--provider', 'fold', '--out', 'out.json'],
        ['digest', 'deep.json'],
      ]) {
        const run = await ollm(args);
        expect({ args, code: run.code, stderr: run.stderr, stdout: run.stdout }).toEqual({ args, code: 2, stderr: expected, stdout: '' });
      }
      expect(existsSync(join(folder.path, 'out.json'))).toBe(false);
      expect(leftovers()).toEqual([]);
    });

    it('reads 1,000 levels (the limit) and refuses 1,001', async () => {
      // The array and the message are two levels: the value adds 998.
      writeFileSync(join(folder.path, 'limit.json'), chatWith(nestedObjects(998)));
      for (const provider of ['fold', 'trim', 'mask']) {
        const atLimit = await ollm(['compact', 'limit.json', '--provider', provider, '--limit', '1', '--out', `${provider}.json`]);
        expect({ provider, code: atLimit.code, stderr: atLimit.stderr }).toMatchObject({ provider, code: 0, stderr: expect.not.stringMatching(/^ollm: /m) });
      }
      // trim keeps the message: its field is written back whole.
      const written = JSON.parse(readFileSync(join(folder.path, 'trim.json'), 'utf8')) as { extra?: unknown }[];
      expect(JSON.stringify(written[1]?.extra)).toBe(JSON.stringify(JSON.parse(nestedObjects(998))));
      writeFileSync(join(folder.path, 'over.json'), chatWith(nestedObjects(999)));
      const over = await ollm(['stats', 'over.json']);
      expect(over.code).toBe(2);
      expect(over.stderr).toMatch(/^ollm: over\.json: line 1, column \d+: JSON nested deeper than 1,000 levels/);
    });

    it('names the line of a deep gptme line', async () => {
      const line = (content: string, extra = '') => `{"role": "user", "content": "${content}", "timestamp": "2025-05-12T09:14:10"${extra}}`;
      writeFileSync(join(folder.path, 'conversation.jsonl'), [line('a'), line('b'), line('c', `, "metadata": ${nestedArrays(5000)}`)].join('\n'));
      const run = await ollm(['stats', 'conversation.jsonl']);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^ollm: conversation\.jsonl: line 3, column \d+: JSON nested deeper than 1,000 levels \(the limit for a transcript\)\n$/);
    });

    it('malformed JSON nested 100,000 deep is reported with its line and column', async () => {
      writeFileSync(join(folder.path, 'broken.json'), `[\n${'['.repeat(100_000)}`);
      const run = await ollm(['stats', 'broken.json']);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe('ollm: broken.json: line 2, column 100001: malformed JSON: unexpected end of input\n');
    });

    it('tool-call arguments nested 100,000 deep stay the string they were (compact with fold succeeds)', async () => {
      const argumentsText = nestedArrays(100_000);
      const chat = [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: argumentsText } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'ok' },
        { role: 'assistant', content: 'done' },
      ];
      const text = `${JSON.stringify(chat, null, 2)}\n`;
      writeFileSync(join(folder.path, 'chat.json'), text);
      const folded = await ollm(['compact', 'chat.json', '--provider', 'fold', '--out', 'folded.json']);
      expect(folded.stderr).not.toContain('Maximum call stack');
      expect(folded.code).toBe(0);
      const kept = await ollm(['compact', 'chat.json', '--provider', 'identity', '--out', 'kept.json']);
      expect(kept.code).toBe(0);
      expect(readFileSync(join(folder.path, 'kept.json'), 'utf8')).toBe(text);
    });

    it.each(['trim', 'fold', 'mask', 'code-aware', 'mask,code-aware,trim'])(
      'a tool output and call arguments of JSON nested 5,000 deep compact with %s (no stack overflow)',
      async (provider) => {
        const deep = nestedObjects(5_000).replace(/ /g, '');
        const chat = [
          { role: 'system', content: 'You run tools.' },
          { role: 'user', content: 'inspect the document' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'run', arguments: deep } }] },
          { role: 'tool', tool_call_id: 'c1', content: deep },
          { role: 'assistant', content: 'It nests very deep.' },
          { role: 'user', content: 'thanks' },
          { role: 'assistant', content: 'You are welcome.' },
        ];
        writeFileSync(join(folder.path, 'deep.json'), JSON.stringify(chat));
        const run = await ollm(['compact', 'deep.json', '--provider', provider, '--limit', '50%', '--out', 'out.json']);
        expect(run.stderr).not.toContain('Maximum call stack');
        expect(run.code).toBe(0);
        const out = JSON.parse(readFileSync(join(folder.path, 'out.json'), 'utf8')) as unknown[];
        // fold folds the old turn into a digest (fewer messages); the others edit in place.
        if (provider === 'fold') expect(out.length).toBeLessThan(chat.length);
        else expect(out).toHaveLength(chat.length);
        expect(out.slice(0, 2)).toEqual(chat.slice(0, 2));
      },
    );
  });

  describe('size', () => {
    // Sparse files: any size at once, nothing written to disk, and the real read path.
    it.each([
      ['600 MiB', 600 * 2 ** 20, '600 MiB'],
      ['3 GiB', 3 * 2 ** 30, '3 GiB'],
    ])('a %s file is refused before it is read, naming the file and the limit', async (_label, size, shown) => {
      const big = join(folder.path, 'big.json');
      writeFileSync(big, '');
      truncateSync(big, size);
      for (const args of [
        ['stats', 'big.json'],
        ['compact', 'big.json', '--provider', 'identity', '--out', 'out.json'],
      ]) {
        const run = await ollm(args);
        expect({ args, code: run.code, stderr: run.stderr }).toEqual({
          args,
          code: 2,
          stderr: `ollm: big.json: file size: ${shown} is over the 512 MiB limit for one transcript\n`,
        });
      }
      expect(existsSync(join(folder.path, 'out.json'))).toBe(false);
    });
  });

  describe('--out', () => {
    const chat = '[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]\n';
    beforeEach(() => writeFileSync(join(folder.path, 'chat.json'), chat));
    const compactTo = (out: string) => ollm(['compact', 'chat.json', '--provider', 'identity', '--out', out]);

    it('into a folder that does not exist: exit 2 naming the path given, nothing created', async () => {
      const run = await compactTo('missing/small.json');
      expect(run.code).toBe(2);
      expect(run.stderr).toBe('ollm: --out missing/small.json: cannot write: the folder missing does not exist\n');
      expect(existsSync(join(folder.path, 'missing'))).toBe(false);
    });

    it('naming a folder: exit 2 naming the path given; the temporary file is removed', async () => {
      mkdirSync(join(folder.path, 'results'));
      const run = await compactTo('results');
      expect(run.code).toBe(2);
      expect(run.stderr).toBe('ollm: --out results: cannot write: it is a folder\n');
      expect(readdirSync(join(folder.path, 'results'))).toEqual([]);
      expect(leftovers()).toEqual([]);
    });

    it('under a file: exit 2 naming the path given', async () => {
      const run = await compactTo('chat.json/small.json');
      expect(run.code).toBe(2);
      expect(run.stderr).toBe('ollm: --out chat.json/small.json: cannot write: a parent of this path is not a folder\n');
      expect(readFileSync(join(folder.path, 'chat.json'), 'utf8')).toBe(chat);
    });

    // Permission bits do not stop root; this case runs as any other user.
    it.skipIf(process.getuid?.() === 0)('into a read-only folder: exit 2 naming the path given, nothing left behind', async () => {
      const readOnly = join(folder.path, 'read-only');
      mkdirSync(readOnly);
      chmodSync(readOnly, 0o555);
      try {
        const run = await compactTo('read-only/small.json');
        expect(run.code).toBe(2);
        expect(run.stderr).toBe('ollm: --out read-only/small.json: cannot write: permission denied\n');
        expect(readdirSync(readOnly)).toEqual([]);
      } finally {
        chmodSync(readOnly, 0o755);
      }
    });
  });
});
