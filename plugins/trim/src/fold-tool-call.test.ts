import { createTokenizer, type TokenCounting, type ToolCallPart, TokenCounter } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { foldToolCall, isFoldedToolCall, rawToolCallInput } from './fold-tool-call.js';
import { numberedLines } from './test-support/conversation-builder.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));
const options = { stored: { sha256: 'cd'.repeat(32), path: '/logs/removed/cdcd.txt' }, lineCharacters: 160, tokens };
const script = `cat > /testbed/reproduce.py << 'EOF'\n${numberedLines(80)}\nEOF`;

function call(input: unknown, rawInput?: string): ToolCallPart {
  return { type: 'tool-call', callId: 'call_1', name: 'bash', input, ...(rawInput !== undefined ? { rawInput } : {}) };
}

describe('foldToolCall', () => {
  it('keeps the input an object of the same shape and rewrites rawInput as its JSON', () => {
    // Python's json.dumps spacing, as SWE-agent writes it.
    const original = call({ command: script, timeout: 30, cwd: '/testbed' }, `{"command": ${JSON.stringify(script)}, "timeout": 30, "cwd": "/testbed"}`);
    const folded = foldToolCall(original, options)!;
    expect(folded.callId).toBe('call_1');
    expect(folded.name).toBe('bash');
    const input = folded.input as Record<string, unknown>;
    expect(Object.keys(input)).toEqual(['command', 'timeout', 'cwd']);
    expect(input['timeout']).toBe(30);
    expect(input['cwd']).toBe('/testbed');
    expect(input['command']).toMatch(
      /^cat > \/testbed\/reproduce\.py << 'EOF'\n# \[ollm trim\] [\d,]+ tokens of this command folded \(82 lines\); ollm recover cdcdcdcdcdcd\nEOF$/,
    );
    expect(JSON.parse(folded.rawInput!)).toEqual(input);
    expect(isFoldedToolCall(folded)).toBe(true);
    expect(isFoldedToolCall(original)).toBe(false);
  });

  it('folds every long string argument by name and leaves short ones', () => {
    const folded = foldToolCall(call({ command: 'create', path: '/testbed/new.py', file_text: numberedLines(50) }), options)!;
    const input = folded.input as Record<string, string>;
    expect(input['command']).toBe('create');
    expect(input['path']).toBe('/testbed/new.py');
    expect(input['file_text']).toContain('tokens of this `file_text` folded (50 lines)');
  });

  it('keeps rawInput absent when the source had none, so object-argument writers stay as they are', () => {
    const folded = foldToolCall(call({ command: script }), options)!;
    expect(folded).not.toHaveProperty('rawInput');
    expect(rawToolCallInput(folded)).toBe(JSON.stringify(folded.input));
  });

  it('folds a plain-string input, keeping rawInput a plain string or JSON as the source had it', () => {
    const plain = foldToolCall(call(script, script), options)!;
    expect(typeof plain.input).toBe('string');
    expect(plain.rawInput).toBe(plain.input);
    const quoted = foldToolCall(call(script, JSON.stringify(script)), options)!;
    expect(JSON.parse(quoted.rawInput!)).toBe(quoted.input);
  });

  it('returns undefined when nothing is worth folding', () => {
    expect(foldToolCall(call({ command: 'ls -la /testbed' }, '{"command": "ls -la /testbed"}'), options)).toBeUndefined();
    expect(foldToolCall(call({ nested: { command: script } }), options)).toBeUndefined();
    expect(foldToolCall(call([script]), options)).toBeUndefined();
    expect(foldToolCall(call(undefined), options)).toBeUndefined();
  });
});
