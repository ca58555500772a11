import type { ToolCallPart } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { findHeredocWrites } from './find-heredoc-writes.js';

const SCRIPT = [
  'import sys',
  '',
  'def check(value):',
  '    doubled = value * 2',
  '    return doubled',
  '',
  'for item in sys.argv[1:]:',
  '    print(check(int(item)))',
];

function call(command: string): ToolCallPart {
  return { type: 'tool-call', callId: 'c1', name: 'bash', input: { command } };
}

describe('findHeredocWrites', () => {
  it("finds a script written with cat > FILE << 'EOF', followed by its run", () => {
    const command = `cd /testbed && cat > test_fix.py << 'EOF'\n${SCRIPT.join('\n')}\nEOF\npython test_fix.py`;
    const [script] = findHeredocWrites(call(command), 6, 0);
    expect(script).toMatchObject({ kind: 'script', path: 'test_fix.py', language: 'python', messageIndex: 6 });
    expect(script!.before).toBe("cd /testbed && cat > test_fix.py << 'EOF'\n");
    expect(script!.after).toBe('\nEOF\npython test_fix.py');
    expect(script!.before + script!.lines.map((line) => line.text).join('\n') + script!.after).toBe(command);
  });

  it('ignores patches written by heredoc, short scripts and plain commands', () => {
    const patch = ['--- a/x.py', '+++ b/x.py', '@@ -1,3 +1,3 @@', ...SCRIPT].join('\n');
    expect(findHeredocWrites(call(`cat > fix.patch << EOF\n${patch}\nEOF`), 0, 0)).toEqual([]);
    expect(findHeredocWrites(call(`cat > notes.txt << EOF\n${patch}\nEOF`), 0, 0)).toEqual([]);
    expect(findHeredocWrites(call("cat > a.py << 'EOF'\nprint(1)\nEOF"), 0, 0)).toEqual([]);
    expect(findHeredocWrites(call('python run.py'), 0, 0)).toEqual([]);
  });
});
