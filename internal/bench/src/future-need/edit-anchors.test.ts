import type { Message } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { cutAfter, stepsOf, type Cut } from './cut-points.js';
import { editAnchors, patchFiles, replaceOldStrings, sedLiteral, sedOldTexts } from './edit-anchors.js';
import { measureLines, normalisedText } from './probe-lines.js';
import { step, text, toolStep, withResult } from './test-conversation.js';

const MODELS = [
  '    10\t    def contribute_to_class(self, cls, name):',
  '    11\t        if not getattr(cls, self.attname, None):',
  '    12\t            setattr(cls, self.attname, self.descriptor_class(self))',
  '    13\t        if self.choices is not None:',
  "    14\t            setattr(cls, 'get_%s_display' % self.name,",
  '    15\t                    partialmethod(cls._get_FIELD_display, field=self))',
  '    16\t        return None',
].join('\n');
const FORMS = ['class DisplayForm(BaseForm):', "    field_order = ['name', 'label']", '    def clean_label(self):'].join('\n');

/** System, task, two steps that show web/models.py (cat -n) and web/forms.py, then `later`, then one more step. */
function conversationWith(later: readonly Message[][]): Message[] {
  return [
    text('s', 'system', 'You can run shell commands.'),
    text('u', 'user', 'Fix the display override. It starts at `def contribute_to_class(self, cls, name):`.'),
    ...step(1, 'Reading the model.', 'cat -n web/models.py', MODELS),
    ...step(2, 'And the form.', 'cat web/forms.py', FORMS),
    ...later.flat(),
    ...step(99, 'Done.', 'echo done', 'done'),
  ];
}

/** The cut right after the first two steps. */
function cutAfterTwo(messages: readonly Message[]): Cut {
  return cutAfter(messages, 2.5 / stepsOf(messages).length)!;
}

function anchors(later: readonly Message[][], submission?: string): { probes: string[]; cut: Cut } {
  const conversation = conversationWith(later);
  const cut = cutAfterTwo(conversation);
  const given = normalisedText(conversation.filter((message) => message.role === 'system' || message.role === 'user'));
  return { probes: editAnchors(cut, submission, given), cut };
}

describe('sed, .replace and patch parsing', () => {
  it('reads the OLD of every sed -i substitution, unescaped, and skips sed without -i', () => {
    expect(sedOldTexts(`cd /testbed && sed -i "s/\\[DD\\] \\[HH:\\[MM:\\]\\]ss/x/" a.py`)).toEqual(['[DD] [HH:[MM:]]ss']);
    expect(sedOldTexts(`sed -i -e '620,628s|for index in indexes:|for i in idx:|' b.py`)).toEqual(['for index in indexes:']);
    expect(sedOldTexts(`sed -n 's/not an edit here/x/p' b.py`)).toEqual([]);
    expect(sedOldTexts(`sed -i s/one_word/two/ c.py; sed -i '5d' c.py`)).toEqual(['one_word']);
  });

  it('takes the longest literal piece of a pattern with regex operators', () => {
    expect(sedLiteral('^    def get_prep_value(self, value):$')).toBe('    def get_prep_value(self, value):');
    expect(sedLiteral('return .*self\\.cleaned_data_value')).toBe('self.cleaned_data_value');
    expect(sedLiteral('a[xy]bcdefgh\\s+z')).toBe('bcdefgh');
  });

  it('reads .replace old strings, literal or assigned to a name before', () => {
    const script = [
      "old_code = '''    if a:\\n        return b'''",
      "content = content.replace(old_code, 'new')",
      'content = content.replace("self.path", "self._path")',
      "content = content.replace(unknown_name, 'x')",
      'not_a_replace("x", "y")',
    ].join('\n');
    expect(replaceOldStrings(script)).toEqual(['    if a:\n        return b', 'self.path']);
  });

  it('reads the removed and context lines of each file of a git diff', () => {
    const diff = [
      'diff --git a/web/models.py b/web/models.py',
      '--- a/web/models.py',
      '+++ b/web/models.py',
      '@@ -1,3 +1,3 @@',
      ' kept',
      '-removed',
      '+added',
    ].join('\n');
    expect(patchFiles(diff)).toEqual([{ path: 'web/models.py', oldLines: ['kept', 'removed'] }]);
  });
});

describe('B: edit anchors', () => {
  it("are prefix output lines holding a later sed -i's OLD (15 characters or more), without grep/cat line numbers", () => {
    const { probes } = anchors([
      step(3, 'Edit.', `sed -i "s/if self.choices is not None:/if self.choices:/" web/models.py && sed -i 's/x = 1/x = 2/' web/models.py`, ''),
    ]);
    expect(probes).toEqual(['if self.choices is not None:']);
  });

  it('are the lines of a later .replace old string that a prefix output showed as lines', () => {
    const script = [
      "cat > fix.py <<'EOF'",
      'old_code = """        if not getattr(cls, self.attname, None):',
      '            setattr(cls, self.attname, self.descriptor_class(self))',
      '        a line no output showed at all"""',
      "content = open('web/models.py').read().replace(old_code, 'new')",
      'EOF',
      'python fix.py',
    ].join('\n');
    const { probes } = anchors([step(3, 'Edit.', script, 'ok')]);
    expect(probes).toEqual(['if not getattr(cls, self.attname, None):', 'setattr(cls, self.attname, self.descriptor_class(self))']);
  });

  it("are an editor tool's old_str lines a prefix output showed", () => {
    const { probes } = anchors([
      toolStep(
        3,
        'Edit.',
        { command: 'str_replace', path: 'web/forms.py', old_str: "class DisplayForm(BaseForm):\n    field_order = ['name', 'label']\n    pass" },
        'ok',
      ),
    ]);
    expect(probes).toEqual(['class DisplayForm(BaseForm):', "field_order = ['name', 'label']"]);
  });

  it("are the lines of a later heredoc that a prefix output of the same file showed, not another file's", () => {
    const heredoc = [
      "cat > web/forms.py << 'EOF'",
      'class DisplayForm(BaseForm):',
      '                    partialmethod(cls._get_FIELD_display, field=self))',
      '    def brand_new_method(self):',
      'EOF',
    ].join('\n');
    const { probes } = anchors([step(3, 'Rewrite the form.', heredoc, '')]);
    expect(probes).toEqual(['class DisplayForm(BaseForm):']);
  });

  it("are the final patch's removed and context lines of the files a later command edits (not those of other files)", () => {
    const submission = [
      'diff --git a/web/models.py b/web/models.py',
      '--- a/web/models.py',
      '+++ b/web/models.py',
      '@@ -11,3 +11,3 @@',
      '         if not getattr(cls, self.attname, None):',
      '-        if self.choices is not None:',
      '+        if self.choices:',
      '         return None',
      'diff --git a/web/forms.py b/web/forms.py',
      '--- a/web/forms.py',
      '+++ b/web/forms.py',
      '@@ -1,2 +1,2 @@',
      "-    field_order = ['name', 'label']",
      "+    field_order = ['label']",
    ].join('\n');
    const { probes } = anchors([step(3, 'Delete a line.', "sed -i '20d' web/models.py", '')], submission);
    // `return None` is shorter than 15 characters; web/forms.py is edited only before the cut, if at all.
    expect(probes).toEqual(['if not getattr(cls, self.attname, None):', 'if self.choices is not None:']);
    // Without a later edit naming the file, the patch asks for nothing: a look, or a test script that reads it.
    expect(anchors([step(3, 'Look.', 'cat web/models.py', MODELS)], submission).probes).toEqual([]);
    const testScript = "cat > t.py <<'EOF'\nprint(open('web/models.py').read())\nEOF\npython t.py";
    expect(anchors([step(3, 'Test.', testScript, '')], submission).probes).toEqual([]);
    // A heredoc that rewrites the file edits it.
    const rewrite = "cat > web/models.py <<'EOF'\nclass Field:\n    pass\nEOF";
    expect(anchors([step(3, 'Rewrite.', rewrite, '')], submission).probes).toEqual([
      'if not getattr(cls, self.attname, None):',
      'if self.choices is not None:',
    ]);
  });

  it('leave out lines a system or user message holds (every valid compaction keeps them)', () => {
    const { probes } = anchors([toolStep(3, 'Edit.', { old_str: '    def contribute_to_class(self, cls, name):\n        if self.choices is not None:' }, '')]);
    expect(probes).toEqual(['if self.choices is not None:']);
  });

  it('are found when the compacted prefix keeps the output (whitespace aside) and lost when it drops it', () => {
    const { probes, cut } = anchors([step(3, 'Edit.', `sed -i "s/if self.choices is not None:/if self.choices:/" web/models.py`, '')]);
    expect(measureLines(probes, normalisedText(cut.prefix))).toEqual({ available: 1, retained: 1, lost: [] });
    const respaced = withResult(cut.prefix, 'c1', '13:\tif   self.choices\tis not\n None:');
    expect(measureLines(probes, normalisedText(respaced)).retained).toBe(1);
    const masked = withResult(cut.prefix, 'c1', '[output of cat -n web/models.py masked: 7 lines]');
    expect(measureLines(probes, normalisedText(masked))).toEqual({ available: 1, retained: 0, lost: ['if self.choices is not None:'] });
  });
});
