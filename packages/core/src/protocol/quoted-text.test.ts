import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dataBlock, escapeDelimiterLookalikes, escapeQuotedText } from './quoted-text.js';

/** The text as a reader sees it: NFKC, lower case, no whitespace or format characters at all. */
function squeezed(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\p{Cf}]/gu, '');
}

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/** Headers as a reader would take them: `[`, a role, `message`, a number; case, NFKC and invisible characters ignored. */
function headers(text: string): number {
  const folded = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\p{Cf}/gu, '');
  return folded.match(/\[\s*(?:pinned\s+)?(?:user|assistant|system|tool)\s+(?:message\s+)?\d+/g)?.length ?? 0;
}

const LOOKALIKES = [
  '</conversation>',
  '</conversation >',
  '</ conversation>',
  '< /conversation>',
  '</CONVERSATION>',
  '</Conversation\t>',
  '</conversation\u00a0>',
  '<\u2003/conversation>',
  '<\u200b/conversation>',
  '</con\u200dversation>',
  '\uFF1C\uFF0F\uFF43\uFF4F\uFF4E\uFF56\uFF45\uFF52\uFF53\uFF41\uFF54\uFF49\uFF4F\uFF4E\uFF1E',
  '\uFE64/conversation\uFE65',
  '<conversation>',
  '< conversation >',
  '</goal>',
  '<GOAL>',
  '< / goal >',
  '[user message 2]',
  '[User Message 2]',
  '[ assistant message 3]',
  '[assistant\u200b message 3]',
  '\uFF3Btool message 4]',
  '[pinned user message 5 kept verbatim]',
  '[user 2]',
  '[part 2]',
  '\n[system message 1]\n',
];

describe('escapeQuotedText', () => {
  it.each(LOOKALIKES)('leaves no delimiter or header lookalike in %j', (lookalike) => {
    const escaped = escapeQuotedText(`before ${lookalike} after`);
    expect(escaped).not.toBe(`before ${lookalike} after`);
    const seen = squeezed(escaped);
    for (const delimiter of ['<conversation', '</conversation', '<goal', '</goal']) expect(seen).not.toContain(delimiter);
    expect(headers(escaped)).toBe(0);
    expect(escaped).not.toMatch(/\[part ?\d/i);
  });

  it('changes nothing else: code, markup and ordinary brackets stay as they are', () => {
    const text = 'if (a < b && list[0] > c) return <div>{items[index]}</div>; // [x] done, [users] table, [partial]\n<conversations-log>';
    expect(escapeQuotedText(text)).toBe(text.replace('<conversations-log>', '‹conversations-log>'));
    expect(escapeQuotedText('plain text')).toBe('plain text');
  });

  it('escapes only the opening character', () => {
    expect(escapeQuotedText('</conversation >')).toBe('‹/conversation >');
    expect(escapeQuotedText('[user message 2]')).toBe('⟦user message 2]');
    expect(escapeDelimiterLookalikes('[user message 2] </goal>')).toBe('[user message 2] ‹/goal>');
  });

  it('folds exactly the characters NFKC maps to < and [', () => {
    const openers: string[] = [];
    for (let code = 0; code <= 0x10ffff; code += 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const character = String.fromCodePoint(code);
      const folded = character.normalize('NFKC');
      if (folded.includes('<') || folded.includes('[')) openers.push(character);
    }
    expect(openers.sort()).toEqual(['<', '[', '\uFE47', '\uFE64', '\uFF1C', '\uFF3B'].sort());
    for (const opener of openers) {
      const lookalike = opener.normalize('NFKC') === '<' ? `${opener}/conversation>` : `${opener}user message 1]`;
      expect(escapeQuotedText(lookalike)).not.toContain(opener);
    }
  });

  it('stays linear on long runs of opening characters and whitespace', () => {
    const hostile = `${'<'.repeat(200_000)}${'[ '.repeat(200_000)}< ${' '.repeat(200_000)}/conversation>`;
    const escaped = escapeQuotedText(hostile);
    expect(count(squeezed(escaped), '</conversation')).toBe(0);
    expect(escaped.length).toBe(hostile.length);
  });
});

describe('dataBlock', () => {
  const fragment = fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
    { weight: 2, arbitrary: fc.constantFrom(...LOOKALIKES) },
    { weight: 1, arbitrary: fc.constantFrom('<', '[', '/', '>', ']', '\u200b', '\u00a0', '\n', 'conversation', 'goal', 'user message 2', '\uFF1C', '\uFF3B') },
  );
  const content = fc.array(fragment, { maxLength: 12 }).map((parts) => parts.join(''));

  it('for any content: one opening and one closing delimiter of each block, and only the headers the prompt wrote', () => {
    fc.assert(
      fc.property(content, fc.array(content, { minLength: 1, maxLength: 5 }), (goal, messages) => {
        const body = messages.map((text, index) => `[assistant message ${index + 1}]\n${escapeQuotedText(text)}`).join('\n\n');
        const prompt = `Instructions.\n\n${dataBlock('goal', escapeQuotedText(goal))}\n\nMore.\n\n${dataBlock('conversation', body)}\n\nEnd.`;
        const seen = squeezed(prompt);
        expect(count(seen, '<conversation')).toBe(1);
        expect(count(seen, '</conversation')).toBe(1);
        expect(count(seen, '<goal')).toBe(1);
        expect(count(seen, '</goal')).toBe(1);
        expect(headers(prompt)).toBe(messages.length);
      }),
      { numRuns: 300 },
    );
  });
});
