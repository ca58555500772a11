import { describe, expect, it } from 'vitest';
import { NameIndex } from '../identifiers/name-index.js';
import { listerOf } from './name-list.js';
import { outputDigest } from './output-digest.js';

const lister = listerOf(new NameIndex([], () => false));
const digest = (output: string) => outputDigest('[ollm fold 0123456789ab]', output, undefined, { lister, visible: new Set() }, { maxNames: 24, maxLines: 3 });

describe('outputDigest', () => {
  it('keeps the exit status, unittest failure and count lines, the symbols defined and the names', () => {
    const output = [
      '<returncode>1</returncode>',
      '<output>',
      'def resolve_lookup(path): pass',
      'FAIL: test_lookup_error (tests.test_lookup.LookupTests)',
      'Traceback (most recent call last):',
      '  File "/testbed/app/lookup.py", line 12, in resolve_lookup',
      'ValueError: bad lookup',
      'Ran 3 tests in 0.01s',
      'FAILED (failures=1)',
      '</output>',
    ].join('\n');
    const text = digest(output);
    expect(text.split('\n')[0]).toBe('[ollm fold 0123456789ab] 10 lines, exit 1');
    expect(text).toContain('ValueError: bad lookup');
    expect(text).toContain('Ran 3 tests in 0.01s');
    expect(text).toContain('FAILED (failures=1)');
    expect(text).toContain('defines: resolve_lookup');
    expect(text).toContain('/testbed/app/lookup.py');
  });

  it('keeps a FAIL: line of unittest', () => {
    const text = outputDigest(
      '[ollm fold 0123456789ab]',
      'FAIL: test_x (t.T)\nok\nok',
      undefined,
      { lister, visible: new Set() },
      { maxNames: 24, maxLines: 3 },
    );
    expect(text).toContain('FAIL: test_x (t.T)');
  });

  it('for JSON, keeps ids, amounts and states as facts', () => {
    const text = digest(JSON.stringify({ reservation_id: 'SDZQKO', status: 'active', payment: { amount: 154, method: 'credit_card_4421486' } }));
    expect(text).toContain('facts: reservation_id SDZQKO, status active, amount 154, credit_card_4421486');
  });
});
