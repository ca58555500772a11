import { describe, expect, it } from 'vitest';
import { failingTestProbes, patchProbes, sweAgentProbes, taskIdentifierProbes } from './swe-agent-probes.js';
import { tauBenchProbes } from './tau-bench-probes.js';
import { repositoryConversation } from './test-fixtures.js';

describe('probes from ground truth', () => {
  it('finds the patch file, its function/class names, the failing test and task identifiers of a real trajectory', async () => {
    const conversation = await repositoryConversation('django__django-11999');
    const probes = sweAgentProbes(conversation);
    const texts = (kind: string) => probes.filter((probe) => probe.kind === kind).map((probe) => probe.text);
    // From info.submission: `+++ b/django/db/models/fields/__init__.py`, hunk `@@ ... @@ class Field(RegisterLookupMixin):`.
    expect(texts('file')).toEqual(['django/db/models/fields/__init__.py']);
    expect(texts('symbol')).toEqual(['Field']);
    // From reports/django__django-11999.report.json, FAIL_TO_PASS.
    expect(texts('failing-test')).toEqual(['test_overriding_FIELD_display']);
    expect(texts('task-identifier')).toEqual(expect.arrayContaining(['get_FOO_display', 'FooBar']));
    expect(texts('task-identifier')).not.toContain('Django');
  });

  it('reads definitions in added and removed lines and ignores /dev/null', () => {
    const patch = [
      '--- /dev/null',
      '+++ b/pkg/new_module.py',
      '@@ -0,0 +1,4 @@',
      '+class NewThing(Base):',
      '+    async def run_it(self):',
      '+        pass',
      '--- a/pkg/old.py',
      '+++ /dev/null',
      '@@ -10,2 +10,0 @@ def outer(value):',
      '-def removed_helper():',
    ].join('\n');
    expect(patchProbes(patch)).toEqual([
      { kind: 'file', text: 'pkg/new_module.py' },
      { kind: 'symbol', text: 'NewThing' },
      { kind: 'symbol', text: 'run_it' },
      { kind: 'symbol', text: 'outer' },
      { kind: 'symbol', text: 'removed_helper' },
    ]);
  });

  it('keeps a docstring-named failing test whole and reads both success and failure lists', () => {
    const report = { x: { tests_status: { FAIL_TO_PASS: { success: ['test_a (m.T)'], failure: ['Fields are ordered.'] } } } };
    expect(failingTestProbes(report, 'x').map((probe) => probe.text)).toEqual(['test_a', 'Fields are ordered.']);
    expect(failingTestProbes(undefined, 'x')).toEqual([]);
  });

  it('takes CamelCase, snake_case, dunder and dotted names from a task, not prose', () => {
    const texts = taskIdentifierProbes('Calling QuerySet.filter() on JSONField with my_value in __init__, e.g. Django breaks.').map((probe) => probe.text);
    expect(texts).toEqual(expect.arrayContaining(['QuerySet.filter', 'JSONField', 'my_value', '__init__', 'QuerySet']));
    expect(texts).not.toContain('e.g');
    expect(texts).not.toContain('Django');
    expect(texts).not.toContain('Calling');
  });

  it('takes the user id, reservation ids and amounts of the expected tau-bench actions', async () => {
    const conversation = await repositoryConversation('task-0-trial-0');
    expect(tauBenchProbes(conversation)).toEqual([
      { kind: 'user-id', text: 'mia_li_3668' },
      { kind: 'amount', text: '250' },
      { kind: 'amount', text: '5' },
    ]);
  });
});
