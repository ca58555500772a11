import { describe, expect, it } from 'vitest';
import { parseResume } from './parse-resume.js';

describe('parseResume', () => {
  it('reads the four sections and the context files in their usual list forms', () => {
    const parsed = parseResume(
      '## Summary\nFixed it.\n## Technical Context\nPython 3.12\n## Current State\nTests pass.\n## Context Files\n- src/app.py — the app\n* `docs/notes.md`\n1. tests/test_app.py (new)\n- src/app.py\n- (none)',
    );
    expect(parsed.missing).toEqual([]);
    expect(parsed.sections.get('Current State')).toBe('Tests pass.');
    expect(parsed.contextFiles).toEqual(['src/app.py', 'docs/notes.md', 'tests/test_app.py']);
  });

  it('names the sections a reply lacks', () => {
    expect(parseResume('Just some text').missing).toEqual(['Summary', 'Technical Context', 'Current State', 'Context Files']);
  });
});
