import { createTokenizer, type TokenCounting, TokenCounter } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { extractKeySentences } from './extract-key-sentences.js';
import { scoreSentence } from './sentence-scoring.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));

const message = [
  'Great! Let me take a look at what we have now.',
  "I'll start by exploring things a little bit more to get a feeling for them.",
  'The issue is that DurationField.formfield drops the help text.',
  'Running the tests raised ValueError: invalid literal for int() with base 10.',
  'The relevant code lives in django/db/models/fields/__init__.py near the bottom.',
  'Perfect, that looks nice and it seems to be going really well so far.',
  'I decided to pass `help_text` through `defaults` instead of kwargs.',
  'Now let me think about it for a moment before moving on to the next thing.',
  '```python',
  'def formfield(self, **kwargs):',
  '    return super().formfield(**{"form_class": forms.DurationField, **kwargs})',
  '```',
  'Okay, moving on then, there is not much else to say about this part here.',
  'The helper parse_duration and the class DurationField interact here.',
].join('\n');

describe('scoreSentence', () => {
  it('marks decisions, errors and file paths as must-keep and filler as negative', () => {
    expect(scoreSentence('We will use a custom validator.').mustKeep).toBe(true);
    expect(scoreSentence('The issue is the regex.').reasons).toContain('decision');
    expect(scoreSentence('It raised a TypeError.').reasons).toContain('error');
    expect(scoreSentence('See tests/forms_tests/test_fields.py for more.').reasons).toContain('file-path');
    expect(scoreSentence('Compare FieldFile and file_path and os.path.join()').reasons).toContain('identifier');
    const filler = scoreSentence('Great! Let me look at that.');
    expect(filler.mustKeep).toBe(false);
    expect(filler.score).toBeLessThan(0);
  });
});

describe('extractKeySentences (phase 3)', () => {
  const summary = extractKeySentences(message, { keepRatio: 0.4, tokens });

  it('keeps decisions, errors, file paths and identifiers', () => {
    expect(summary).toContain('The issue is that DurationField.formfield drops the help text.');
    expect(summary).toContain('ValueError: invalid literal');
    expect(summary).toContain('django/db/models/fields/__init__.py');
    expect(summary).toContain('I decided to pass `help_text` through `defaults` instead of kwargs.');
  });

  it('keeps fenced code blocks verbatim', () => {
    const block = message.slice(message.indexOf('```python'), message.lastIndexOf('```') + 3);
    expect(summary).toContain(block);
  });

  it('drops filler and comes out smaller, in the original order', () => {
    expect(summary).not.toContain('Great!');
    expect(summary).not.toContain('Perfect, that looks nice');
    expect(summary).not.toContain('moving on then');
    expect(tokens.countText(summary)).toBeLessThan(tokens.countText(message));
    expect(summary.indexOf('The issue is')).toBeLessThan(summary.indexOf('I decided'));
  });

  it('keeps list markers with their item', () => {
    const text = '1. Fix the regex in django/utils/dateparse.py\n2. Great, nice.';
    expect(extractKeySentences(text, { keepRatio: 0.1, tokens })).toBe('1. Fix the regex in django/utils/dateparse.py');
  });

  it('keeps an unterminated fence as code to the end', () => {
    const text = 'Perfect, well done.\n```\nraise SystemExit(1)';
    expect(extractKeySentences(text, { keepRatio: 0.1, tokens })).toBe('```\nraise SystemExit(1)');
  });
});
