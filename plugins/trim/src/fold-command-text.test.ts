import { createTokenizer, type TokenCounting, TokenCounter } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { foldCommandText } from './fold-command-text.js';
import { numberedLines } from './test-support/conversation-builder.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));
const stored = { sha256: 'ab'.repeat(32), path: '/logs/removed/abab.txt' };

function fold(text: string, options: Partial<Parameters<typeof foldCommandText>[0]> = {}) {
  return foldCommandText({ text, label: 'command', stored, lineCharacters: 160, tokens, ...options }, tokens.countText(text));
}

describe('foldCommandText', () => {
  it('keeps the first line, a note with the tokens folded and how to recover, and the last line', () => {
    const command = `cat > /testbed/reproduce.py << 'EOF'\n${numberedLines(60)}\nEOF`;
    const folded = fold(command);
    const lines = folded.text.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(`cat > /testbed/reproduce.py << 'EOF'`);
    const removed = tokens.countText(command) - folded.tokens;
    expect(lines[1]).toBe(`# [ollm trim] ${removed.toLocaleString('en-US')} tokens of this command folded (62 lines); ollm recover ${'ab'.repeat(6)}`);
    expect(lines[2]).toBe('EOF');
    expect(folded.tokens).toBeGreaterThanOrEqual(tokens.countText(folded.text));
  });

  it('keeps a short run of lines after the heredoc ends, and only the last line after a long one', () => {
    const runs = `cat > /testbed/test_fix.py << "END"\n${numberedLines(40)}\nEND\ncd /testbed\npython test_fix.py\n`;
    expect(fold(runs).text.split('\n').slice(2)).toEqual(['END', 'cd /testbed', 'python test_fix.py']);
    // The final newline ends the last line: 1 + 40 + 3 lines.
    expect(fold(runs).text).toContain('(44 lines)');
    const long = `cat > a.py <<EOF\n${numberedLines(40)}\nEOF\n${numberedLines(5, 'step')}`;
    expect(fold(long).text.split('\n').slice(2)).toEqual(['step 5: lorem ipsum dolor sit amet']);
  });

  it('cuts a long first line and names the argument and a missing logdir', () => {
    const oneLine = `python -c "${'print(1); '.repeat(100)}"`;
    const folded = fold(oneLine, { label: '`file_text`', stored: { sha256: stored.sha256 }, lineCharacters: 40 });
    const [first, note, ...rest] = folded.text.split('\n');
    expect(first).toBe(`${oneLine.slice(0, 40)}… (${oneLine.length - 40} more characters)`);
    expect(note).toMatch(/^# \[ollm trim\] [\d,]+ tokens of this `file_text` folded; NOT saved \(no logdir configured\), sha256 abababababab$/);
    expect(rest).toEqual([]);
  });

  it('writes the count with thousands separators', () => {
    expect(fold(`cat > big.py << 'EOF'\n${numberedLines(400)}\nEOF`).text).toMatch(/# \[ollm trim\] \d,\d{3} tokens/);
  });
});
