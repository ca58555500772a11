import { describe, expect, it } from 'vitest';
import { foldSource } from '../test-support/fold-source.js';
import { SAMPLES } from '../test-support/language-samples.js';

describe('tree-sitter folding, per language', () => {
  for (const sample of SAMPLES) {
    describe(`${sample.language}: ${sample.kept[sample.kept.length - 1]}`, () => {
      it('keeps signatures and imports, folds bodies into counted markers', async () => {
        const folded = await foldSource(sample.code, sample.language);
        for (const text of sample.kept) expect(folded).toContain(text);
        expect(folded).toMatch(/\.\.\. \d+ lines folded \(\d+-\d+\)/);
        expect(folded.length).toBeLessThan(sample.code.length);
      });

      it('removes comments and the folded bodies', async () => {
        const folded = await foldSource(sample.code, sample.language);
        for (const text of sample.removed) expect(folded).not.toContain(text);
      });

      it('keeps a cited line inside a folded body', async () => {
        expect(await foldSource(sample.code, sample.language)).not.toContain(sample.citedText);
        expect(await foldSource(sample.code, sample.language, { keptLines: [sample.citedLine] })).toContain(sample.citedText);
      });
    });
  }

  it('at the comments level removes comments and keeps every body', async () => {
    const python = SAMPLES[0]!;
    const folded = await foldSource(python.code, 'python', { level: 'comments' });
    expect(folded).not.toContain('Module comment');
    expect(folded).not.toContain('strip spaces');
    expect(folded).toContain('data = handle.read()');
    expect(folded).not.toContain('lines folded');
  });

  it('cuts trailing comments but keeps the code before them', async () => {
    const code = 'def f(x):\n    return x  # the identity\n';
    expect(await foldSource(code, 'python', { level: 'comments' })).toBe('def f(x):\n    return x\n');
  });

  it('keeps a shebang', async () => {
    const code = '#!/bin/sh\n# comment\necho hi\n';
    expect(await foldSource(code, 'bash', { level: 'comments' })).toBe('#!/bin/sh\necho hi\n');
  });

  it('folds a fragment cut from inside a method: the orphan body goes, the next method keeps its signature', async () => {
    const fragment = [
      '            value = compute(x)',
      '            other = value * 2',
      '            third = other + 1',
      '        return value',
      '',
      '    def next_method(self, item):',
      '        first = item.first',
      '        second = item.second',
      '        return first + second',
    ].join('\n');
    const folded = await foldSource(fragment, 'python');
    expect(folded).toContain('    def next_method(self, item):');
    expect(folded).not.toContain('other = value * 2');
    expect(folded).not.toContain('second = item.second');
  });
});

describe('script folding (heredoc scripts the agent wrote)', () => {
  const script = [
    'import sys',
    'from app import parse',
    '',
    'def check(value):',
    '    result = parse(value)',
    '    return result',
    '',
    'print("Test 1: plain value")',
    'print(check("14:00"))',
    'for value in sys.argv[1:]:',
    '    print(check(value))',
  ].join('\n');

  it('folds top-level statements like a body, keeping imports and signatures', async () => {
    const folded = await foldSource(script, 'python', { script: true });
    expect(folded).toContain('from app import parse');
    expect(folded).toContain('def check(value):');
    expect(folded).not.toContain('Test 1: plain value');
    expect(folded).not.toContain('for value in sys.argv');
    // A file view keeps those statements: in a module they are its API.
    expect(await foldSource(script, 'python')).toContain('print("Test 1: plain value")');
  });
});

describe('line-based folding (languages without a grammar)', () => {
  const kotlin = `package app

import kotlin.math.max

// Scores things.
class Scorer(private val base: Int) {
    fun score(value: Int): Int {
        val doubled = value * 2
        val shifted = doubled + base
        return max(shifted, 0)
    }
}
`;

  it('keeps the head and definition-like lines, drops comments, folds the rest', async () => {
    const folded = await foldSource(kotlin, undefined);
    expect(folded).toContain('import kotlin.math.max');
    expect(folded).toContain('class Scorer(private val base: Int) {');
    expect(folded).toContain('fun score(value: Int): Int {');
    expect(folded).not.toContain('Scores things');
    expect(folded).not.toContain('val shifted = doubled + base');
    expect(folded).toMatch(/\.\.\. \d+ lines folded/);
  });

  it('keeps a cited line', async () => {
    expect(await foldSource(kotlin, undefined, { keptLines: [9] })).toContain('val shifted = doubled + base');
  });
});
