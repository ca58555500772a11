import type { ToolCallPart } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { detectToolView } from './detect-tool-view.js';
import { parseReadCommand } from './read-command.js';

const SOURCE = Array.from({ length: 12 }, (_, index) => `line_${index + 1} = ${index + 1}`);

function bash(command: string): ToolCallPart {
  return { type: 'tool-call', callId: 'call_1', name: 'bash', input: { command } };
}

function wrapped(body: string): string {
  return `<returncode>0</returncode>\n<output>\n${body}\n</output>`;
}

function numberedCat(from: number, rows: readonly string[]): string {
  return rows.map((row, index) => `${String(from + index).padStart(6)}\t${row}`).join('\n');
}

describe('parseReadCommand', () => {
  it('recognises cat, nl, sed -n, head, tail and single-file grep with context', () => {
    expect(parseReadCommand('cat src/app.py')).toEqual({ path: 'src/app.py', wholeFile: true, numbered: false, firstLine: 1 });
    expect(parseReadCommand('cd /testbed && cat -n ./django/x.py')).toMatchObject({ path: '/testbed/django/x.py', numbered: true });
    expect(parseReadCommand('nl -ba lib/util.go')).toMatchObject({ path: 'lib/util.go', numbered: true, wholeFile: true });
    expect(parseReadCommand("sed -n '120,180p' django/db/models/query.py")).toMatchObject({ firstLine: 120, wholeFile: false, numbered: false });
    expect(parseReadCommand('head -n 40 main.rs')).toMatchObject({ path: 'main.rs', firstLine: 1, wholeFile: false });
    expect(parseReadCommand('tail -n +30 main.rs')).toMatchObject({ firstLine: 30 });
    expect(parseReadCommand('grep -n -A 20 "def parse" utils/dateparse.py')).toMatchObject({ path: 'utils/dateparse.py', numbered: true });
    expect(parseReadCommand('cat django/utils/http.py | grep -n -A20 "def parse_http_date"')).toMatchObject({ numbered: true, wholeFile: false });
    expect(parseReadCommand("cat -n app.ts | sed -n '10,40p'")).toMatchObject({ numbered: true });
  });

  it('rejects writes, runs and multi-file reads', () => {
    expect(parseReadCommand("cat > test.py << 'EOF'\nprint(1)\nEOF")).toBeUndefined();
    expect(parseReadCommand("sed -i 's/a/b/' x.py")).toBeUndefined();
    expect(parseReadCommand('python reproduce.py')).toBeUndefined();
    expect(parseReadCommand('cat a.py b.py')).toBeUndefined();
    expect(parseReadCommand('grep -rn "foo" django/')).toBeUndefined();
    expect(parseReadCommand('cat a.py && cat b.py')).toBeUndefined();
    expect(parseReadCommand('cat a.py | python -')).toBeUndefined();
  });
});

describe('detectToolView', () => {
  it('reads a plain cat view, numbering rows from 1', () => {
    const view = detectToolView(bash('cd /repo && cat pkg/mod.py'), wrapped(SOURCE.join('\n')), 3, 0)!;
    expect(view).toMatchObject({ kind: 'file-view', path: '/repo/pkg/mod.py', language: 'python', wholeFile: true, messageIndex: 3 });
    expect(view.lines[0]).toEqual({ prefix: '', text: 'line_1 = 1', number: 1 });
    expect(view.before).toBe('<returncode>0</returncode>\n<output>\n');
    expect(view.after).toBe('\n</output>');
  });

  it('keeps trailing newlines outside the code, and reads a long run of blank lines in the middle at once', () => {
    const body = `${SOURCE.slice(0, 6).join('\n')}${'\n'.repeat(100_000)}${SOURCE.slice(6).join('\n')}\n\n\n`;
    const view = detectToolView(bash('cat pkg/mod.py'), wrapped(body), 0, 0)!;
    expect(view.after).toBe('\n\n\n\n</output>');
    expect(view.lines.at(-1)?.text).toBe('line_12 = 12');
  });

  it("numbers a sed -n 'a,bp' view from a", () => {
    const view = detectToolView(bash("sed -n '200,211p' pkg/mod.py"), wrapped(SOURCE.join('\n')), 0, 0)!;
    expect(view.lines.map((line) => line.number)).toEqual(SOURCE.map((_, index) => 200 + index));
    expect(view.wholeFile).toBe(false);
  });

  it('strips nl -ba / cat -n prefixes for parsing and keeps them for display', () => {
    const view = detectToolView(bash('nl -ba pkg/mod.py'), wrapped(numberedCat(1, SOURCE)), 0, 0)!;
    expect(view.lines[4]).toEqual({ prefix: '     5\t', text: 'line_5 = 5', number: 5 });
  });

  it('reads grep -n context views with their separators', () => {
    const rows = ['10-def a():', '11-    return 1', '12:def b():', '13-    return 2', '--', '40-def c():', '41:    x = 1', '42-    y = 2', '43-    return x'];
    const view = detectToolView(bash('grep -n -B2 -A2 "def b\\|x = 1" pkg/mod.py'), wrapped(rows.join('\n')), 0, 0)!;
    expect(view.lines[2]).toEqual({ prefix: '12:', text: 'def b():', number: 12 });
    expect(view.lines[4]).toEqual({ prefix: '--', text: '' });
  });

  it("reads SWE-agent's str_replace_editor view by its `cat -n` header", () => {
    const output = `Here's the result of running \`cat -n\` on /testbed/app/models.py:\n${numberedCat(1, SOURCE)}\n`;
    const call: ToolCallPart = { type: 'tool-call', callId: 'c', name: 'str_replace_editor', input: { command: 'view', path: '/testbed/app/models.py' } };
    const view = detectToolView(call, output, 0, 0)!;
    expect(view).toMatchObject({ path: '/testbed/app/models.py', wholeFile: true, language: 'python' });
    expect(view.before).toContain("Here's the result of running `cat -n`");
    expect(view.lines[0]).toMatchObject({ prefix: '     1\t', number: 1 });
    // Without the call (a format that lost it), the header alone still marks the view.
    expect(detectToolView(undefined, output, 0, 0)?.path).toBe('/testbed/app/models.py');
  });

  it("keeps mini-swe-agent's elided-middle notes as marker rows", () => {
    const output = `<returncode>0</returncode>\n<warning>\ntoo long\n</warning><output_head>\n${SOURCE.join('\n')}\n</output_head>\n<elided_chars>\n300 characters elided\n</elided_chars>\n<output_tail>\n${SOURCE.join('\n')}\n</output_tail>`;
    const view = detectToolView(bash('cat pkg/mod.py'), output, 0, 0)!;
    expect(view.wholeFile).toBe(false);
    expect([...view.markerRows!].map((row) => view.lines[row]!.text)).toEqual([
      '</output_head>',
      '<elided_chars>',
      '300 characters elided',
      '</elided_chars>',
      '<output_tail>',
    ]);
    expect(view.lines[0]!.number).toBe(1);
    expect(view.lines[view.lines.length - 1]!.number).toBeUndefined();
  });

  it('ignores failed commands, short outputs, diffs and non-read commands', () => {
    expect(detectToolView(bash('cat pkg/mod.py'), `<returncode>1</returncode>\n<output>\n${SOURCE.join('\n')}\n</output>`, 0, 0)).toBeUndefined();
    expect(detectToolView(bash('cat pkg/mod.py'), wrapped('x = 1\ny = 2'), 0, 0)).toBeUndefined();
    const diff = ['diff --git a/x.py b/x.py', '--- a/x.py', '+++ b/x.py', '@@ -1,3 +1,3 @@', ...SOURCE].join('\n');
    expect(detectToolView(bash('cat patch.txt'), wrapped(diff), 0, 0)).toBeUndefined();
    expect(detectToolView(bash('git diff'), wrapped(diff), 0, 0)).toBeUndefined();
    expect(detectToolView(bash('python run.py'), wrapped(SOURCE.join('\n')), 0, 0)).toBeUndefined();
  });
});
