import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TokenCounter, createTokenizer } from '@ollm/core';
import { listFixtureFiles, loadFixtureConversations } from '@ollm/provider-conformance';
import { extractIdentifiers } from '../identifiers/extract-identifiers.js';
import { visibleText } from '../identifiers/visible-text.js';
import { namesListTokens, type ListEnd } from './names-list-tokens.js';

const counters = [new TokenCounter(createTokenizer('o200k_base')), new TokenCounter(createTokenizer('cl100k_base'))];
const awkward = [
  '__init__',
  '_private_',
  'get_FIELD_display',
  'v2',
  'HTTP2',
  '/testbed/django/db/models/base.py',
  'base.py',
  'ValueError',
  'SDZQKO',
  'x_1_',
  'a',
];

describe('namesListTokens', () => {
  it('adds up to the count of the whole list, after any lead ending with a colon, with any end', async () => {
    const [file] = listFixtureFiles('repo');
    const messages = (await loadFixtureConversations(file!))[0]!.messages;
    const found = [...new Set(messages.flatMap((message) => [...extractIdentifiers(visibleText(message)).keys()]))];
    const names = [...awkward, ...found.slice(0, 300)];
    const lead = fc.constantFrom('names:', 'defines:', '[ollm fold 0123456789ab] 3 earlier steps folded (cat ×2, sed); names seen:', 'ok (names:', 'x\nnames:');
    fc.assert(
      fc.property(lead, fc.array(fc.constantFrom(...names), { minLength: 1, maxLength: 30 }), fc.constantFrom<ListEnd>('', '\n', ')'), (head, list, end) => {
        for (const counter of counters) {
          const listed = namesListTokens(list, end, (name, follower) => counter.countText(` ${name}${follower}`));
          const tail = end === '\n' ? 'names: next' : '';
          expect(counter.countText(head) + listed! + counter.countText(tail)).toBe(counter.countText(`${head} ${list.join(', ')}${end}${tail}`));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('gives up on a name with a space in it', () => {
    expect(namesListTokens(['a b'], '', () => 1)).toBeUndefined();
    expect(namesListTokens([''], '', () => 1)).toBeUndefined();
  });
});
