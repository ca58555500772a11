import { createTokenizer, type TokenCounting, type ToolCallPart, TokenCounter } from '@ollm/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldSavesEnough, foldToolCall, isFoldedToolCall, MINIMUM_FOLD_SAVING, rawToolCallInput } from './fold-tool-call.js';
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

  it("notes what the call's arguments lose, as the model reads them, when one argument is folded", () => {
    const original = call({ command: script, timeout: 30 }, `{"command": ${JSON.stringify(script)}, "timeout": 30}`);
    const folded = foldToolCall(original, options)!;
    const shown = Number(/\] ([\d,]+) tokens of this command/.exec((folded.input as Record<string, string>)['command']!)![1]!.replace(/,/g, ''));
    const saved = tokens.countText(rawToolCallInput(original)) - tokens.countText(rawToolCallInput(folded));
    // The draft the note is measured on shows a number of as many digits or more: a token or two at most.
    expect(shown).toBeLessThanOrEqual(saved);
    expect(shown).toBeGreaterThanOrEqual(saved - 2);
  });

  it('never tokenises the folded argument whole when one argument is folded: the call count given and a few hundred tokens of it do', () => {
    const counted: string[] = [];
    const spy: TokenCounting = {
      tokenizer: tokens.tokenizer,
      countText: (text) => (counted.push(text), tokens.countText(text)),
      countTextUpTo: (text, limit) => tokens.tokenizer.countTokensUpTo!(text, limit),
      countPartText: (part) => tokens.countPartText(part),
      countMessage: (message) => tokens.countMessage(message),
      countMessages: (messages) => tokens.countMessages(messages),
    };
    const original = call({ command: script });
    const folded = foldToolCall(original, { ...options, tokens: spy, inputTokens: tokens.countText(rawToolCallInput(original)) })!;
    expect(isFoldedToolCall(folded)).toBe(true);
    expect(counted.length).toBeGreaterThan(0);
    expect(counted).not.toContain(script);
    expect(counted).not.toContain(rawToolCallInput(original));
  });

  it('notes each argument its own tokens when several are folded', () => {
    const oldText = numberedLines(60, 'old');
    const newText = numberedLines(70, 'new');
    const folded = foldToolCall(call({ command: 'str_replace', path: '/testbed/a.py', old_str: oldText, new_str: newText }), options)!;
    const input = folded.input as Record<string, string>;
    for (const [key, original] of [
      ['old_str', oldText],
      ['new_str', newText],
    ] as const) {
      const shown = Number(new RegExp(`\\] ([\\d,]+) tokens of this \`${key}\``).exec(input[key]!)![1]!.replace(/,/g, ''));
      expect(shown).toBeLessThanOrEqual(tokens.countText(original) - tokens.countText(input[key]!));
      expect(shown).toBeGreaterThanOrEqual(tokens.countText(original) - tokens.countText(input[key]!) - 2);
    }
  });

  it('folds the same call object the same way every time, to the same object', () => {
    const original = call({ command: script });
    expect(foldToolCall(original, options)).toBe(foldToolCall(original, options));
    expect(foldToolCall({ ...original }, options)).toEqual(foldToolCall(original, options));
  });

  it('returns undefined when nothing is worth folding', () => {
    expect(foldToolCall(call({ command: 'ls -la /testbed' }, '{"command": "ls -la /testbed"}'), options)).toBeUndefined();
    expect(foldToolCall(call({ nested: { command: script } }), options)).toBeUndefined();
    expect(foldToolCall(call([script]), options)).toBeUndefined();
    expect(foldToolCall(call(undefined), options)).toBeUndefined();
  });
});

describe('foldSavesEnough', () => {
  it("says what the exact count says: the fold has at most 75% of the text's tokens", () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.nat(200), (text, foldedTokens) => {
        expect(foldSavesEnough(text, foldedTokens, tokens)).toBe(foldedTokens <= (1 - MINIMUM_FOLD_SAVING) * tokens.countText(text));
      }),
      { numRuns: 2000 },
    );
  });
});
