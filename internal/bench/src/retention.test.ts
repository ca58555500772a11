import type { Message } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { containsProbe, measureRetention, searchableText } from './retention.js';

const text = (id: string, role: Message['role'], body: string, metadata?: Record<string, unknown>): Message => ({
  id,
  role,
  parts: [{ type: 'text', text: body }],
  ...(metadata ? { metadata } : {}),
});

describe('retention', () => {
  it('matches a probe only as a whole token', () => {
    expect(containsProbe('paid $250 today', '250')).toBe(true);
    expect(containsProbe('paid 2500 today', '250')).toBe(false);
    expect(containsProbe('see ./django/db/models/fields/__init__.py:763', 'django/db/models/fields/__init__.py')).toBe(true);
    expect(containsProbe('class FieldTests', 'Field')).toBe(false);
    expect(containsProbe('FieldTests and Field.', 'Field')).toBe(true);
  });

  it('counts only probes present before compaction, and lists the lost ones', () => {
    const probes = [
      { kind: 'file' as const, text: 'a/b.py' },
      { kind: 'symbol' as const, text: 'Gone' },
      { kind: 'symbol' as const, text: 'NeverThere' },
    ];
    const retention = measureRetention(probes, 'edit a/b.py, class Gone', 'edit a/b.py');
    expect(retention.available).toBe(2);
    expect(retention.retained).toBe(1);
    expect(retention.share).toBe(0.5);
    expect(retention.lost).toEqual([{ kind: 'symbol', text: 'Gone' }]);
    expect(measureRetention(probes.slice(2), 'nothing', 'nothing').share).toBeUndefined();
  });

  it('searches tool calls and results but never the pinned SWE-agent exit message', () => {
    const messages: Message[] = [
      text('u', 'user', 'Fix it.'),
      {
        id: 'a',
        role: 'assistant',
        parts: [{ type: 'tool-call', callId: 'c', name: 'bash', input: { command: 'cat x.py' }, rawInput: '{"command":"cat x.py"}' }],
      },
      { id: 't', role: 'tool', parts: [{ type: 'tool-result', callId: 'c', output: 'def helper_one():' }] },
      { ...text('e', 'assistant', 'diff --git a/secret_file.py', { sourceRole: 'exit' }), pinned: true },
    ];
    const searched = searchableText(messages);
    expect(searched).toContain('cat x.py');
    expect(searched).toContain('helper_one');
    expect(searched).not.toContain('secret_file.py');
  });
});
