import { describe, expect, it } from 'vitest';
import { patchProbes, presentProbes } from './patch-probes.js';

const patch = [
  'diff --git a/django/db/models/fields/__init__.py b/django/db/models/fields/__init__.py',
  '--- a/django/db/models/fields/__init__.py',
  '+++ b/django/db/models/fields/__init__.py',
  '@@ -763,8 +763,10 @@ class Field(RegisterLookupMixin):',
  '+            method_name = 1',
  '@@ -800,2 +802,4 @@ def contribute_to_class(self, cls):',
  '+    def get_display(self):',
  '+class Helper:',
  '@@ -900,2 +904,4 @@',
].join('\n');

describe('patchProbes', () => {
  it('takes paths, hunk function/class names and defined names', () => {
    expect(patchProbes(patch)).toEqual(['django/db/models/fields/__init__.py', 'Field', 'contribute_to_class', 'get_display', 'Helper']);
  });

  it('finds which probes a conversation still contains', () => {
    const messages = [{ id: 'a', role: 'tool' as const, parts: [{ type: 'tool-result' as const, callId: 'c', output: 'class Field(...)' }] }];
    expect(presentProbes(['Field', 'Helper'], messages)).toEqual(['Field']);
    const withCall = [{ id: 'b', role: 'assistant' as const, parts: [{ type: 'text' as const, text: 'Helper' }] }, ...messages];
    expect(presentProbes(['Field', 'Helper'], withCall)).toEqual(['Field', 'Helper']);
    expect(presentProbes(['Field', 'Helper'], withCall, true)).toEqual(['Field']);
  });
});
