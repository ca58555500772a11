import type { Message } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { checkConversation } from './conversation-checks.js';
import { cutAfter } from './cut-points.js';
import { futureNeeds, measureNeeds } from './future-needs.js';

const text = (id: string, role: Message['role'], body: string): Message => ({ id, role, parts: [{ type: 'text', text: body }] });

function step(n: number, prose: string, command: string, output: string): Message[] {
  return [
    {
      id: `a${n}`,
      role: 'assistant',
      parts: [
        { type: 'text', text: prose },
        { type: 'tool-call', callId: `c${n}`, name: 'bash', input: { command }, rawInput: JSON.stringify({ command }) },
      ],
    },
    { id: `t${n}`, role: 'tool', parts: [{ type: 'tool-result', callId: `c${n}`, output }] },
  ];
}

// Four steps; the cut at 50% keeps the first two.
const conversation: Message[] = [
  text('s', 'system', 'You can run shell commands. Finish with SUBMIT_NOW.'),
  text('u', 'user', 'Fix parse_header in web/http/headers.py.'),
  ...step(
    1,
    'Looking at the parser.',
    'grep -n parse_header web/http/headers.py',
    '12: def parse_header(line):\n40: def split_params_fast(value):\n51: class HeaderCache:',
  ),
  ...step(
    2,
    'The helper normalize_spacing looks relevant.',
    'cat web/http/util_funcs.py',
    'def normalize_spacing(value):\n    raise ValueError\nunused_helper = 1',
  ),
  // Later: uses split_params_fast (held only in tool output), HeaderCache (tool output), normalize_spacing
  // (prose and output), web/http/util_funcs.py (a call), parse_header and SUBMIT_NOW (given by
  // system/user), brand_new_name (never held); later tool output mentions unused_helper, which
  // no later assistant message writes.
  ...step(3, 'Use split_params_fast and HeaderCache; ValueError comes from normalize_spacing.', 'sed -i s/x/y/ web/http/util_funcs.py', 'ok: unused_helper'),
  ...step(4, 'Add brand_new_name, fix parse_header, then SUBMIT_NOW.', 'echo done', 'done'),
];

describe('future needs at a cut', () => {
  const cut = cutAfter(conversation, 0.5)!;
  const needs = futureNeeds(conversation, cut);

  it('are the identifiers later assistant messages use that the prefix’s assistant/tool messages held, less any system/user message holds', () => {
    expect(cut.stepsKept).toBe(2);
    expect(needs.map((need) => need.text).sort()).toEqual(['HeaderCache', 'ValueError', 'normalize_spacing', 'split_params_fast', 'web/http/util_funcs.py']);
    // Given by the system or user message: nothing may drop them, so they are no need.
    expect(needs.map((need) => need.text)).not.toContain('parse_header');
    expect(needs.map((need) => need.text)).not.toContain('SUBMIT_NOW');
    // Never held before the cut; held but only later tool output mentions it.
    expect(needs.map((need) => need.text)).not.toContain('brand_new_name');
    expect(needs.map((need) => need.text)).not.toContain('unused_helper');
  });

  it('records the most lasting place the prefix held each need', () => {
    const place = Object.fromEntries(needs.map((need) => [need.text, need.heldIn]));
    expect(place).toEqual({
      split_params_fast: 'tool-result',
      HeaderCache: 'tool-result',
      ValueError: 'tool-result',
      normalize_spacing: 'assistant-text',
      'web/http/util_funcs.py': 'tool-call',
    });
    expect(needs.find((need) => need.text === 'HeaderCache')!.age).toBe(2);
  });

  it('counts a need retained only when the compacted prefix still holds it', () => {
    const masked = cut.prefix.map((message) =>
      message.id === 't1'
        ? { ...message, parts: [{ type: 'tool-result' as const, callId: 'c1', output: '[masked] 3 lines, first: 12: def parse_header(line):' }] }
        : message,
    );
    const retention = measureNeeds(needs, masked);
    expect(retention.available).toBe(5);
    expect(retention.lost.map((need) => need.text).sort()).toEqual(['HeaderCache', 'split_params_fast']);
    expect(retention.retained).toBe(3);
    expect(measureNeeds(needs, cut.prefix).retained).toBe(5);
  });
});

describe('conversation checks', () => {
  const prefix = cutAfter(conversation, 0.5)!.prefix;

  it('is valid when tool calls keep their results and the system message and task are kept unchanged', () => {
    expect(checkConversation(prefix, prefix)).toEqual({ taskKept: true, valid: true });
    const withoutTask = prefix.filter((message) => message.id !== 'u');
    expect(checkConversation(prefix, withoutTask)).toEqual({ taskKept: false, valid: false });
    const editedTask = prefix.map((message) => (message.id === 'u' ? text('u', 'user', 'Fix it.') : message));
    expect(checkConversation(prefix, editedTask).taskKept).toBe(false);
  });

  it('is invalid with an orphan tool result or a call that lost its result', () => {
    const orphanResult = prefix.filter((message) => message.id !== 'a1');
    expect(checkConversation(prefix, orphanResult)).toMatchObject({ taskKept: true, valid: false, pairingProblem: expect.stringContaining('c1') });
    const lostResult = prefix.filter((message) => message.id !== 't2');
    expect(checkConversation(prefix, lostResult).valid).toBe(false);
  });
});

describe('shortened tool calls', () => {
  const prefix = cutAfter(conversation, 0.5)!.prefix;
  const shortened = (command: string) =>
    prefix.map((message) =>
      message.id === 'a2'
        ? {
            ...message,
            parts: message.parts.map((part) => (part.type === 'tool-call' ? { ...part, input: { command }, rawInput: JSON.stringify({ command }) } : part)),
          }
        : message,
    );

  it('make the output invalid unless the shortened arguments carry a 12-hex reference', () => {
    expect(checkConversation(prefix, shortened('cat web/http/…'))).toEqual({
      taskKept: true,
      shortenedCallWithoutReference: 'tool call c2 was shortened without a reference',
      valid: false,
    });
    expect(checkConversation(prefix, shortened('cat web/http/… [cut: ref 0123456789ab]'))).toEqual({ taskKept: true, valid: true });
    // Not 12 hex digits as a word: no reference.
    expect(checkConversation(prefix, shortened('cat [ref 0123456789abc]')).valid).toBe(false);
    expect(checkConversation(prefix, shortened('cat [ref 0123456789AB]')).valid).toBe(false);
  });

  it('compare decoded arguments: the same command written as other JSON is no shortening', () => {
    const respelled = prefix.map((message) =>
      message.id === 'a2'
        ? {
            ...message,
            parts: message.parts.map((part) =>
              part.type === 'tool-call' ? { ...part, rawInput: JSON.stringify({ command: 'cat web/http/util_funcs.py' }, null, 2) } : part,
            ),
          }
        : message,
    );
    expect(checkConversation(prefix, respelled).valid).toBe(true);
  });

  it('take a call id the input reuses for the call of either message', () => {
    // Step 2 again, its call under step 1's id (tau-bench's transcripts reuse ids).
    const reused = prefix.map((message) =>
      message.id === 'a2' || message.id === 't2'
        ? { ...message, parts: message.parts.map((part) => (part.type === 'tool-call' || part.type === 'tool-result' ? { ...part, callId: 'c1' } : part)) }
        : message,
    );
    expect(checkConversation(reused, reused).valid).toBe(true);
    const shortenedFirst = reused.map((message) =>
      message.id === 'a1'
        ? {
            ...message,
            parts: message.parts.map((part) => (part.type === 'tool-call' ? { ...part, input: { command: 'grep' }, rawInput: '{"command":"grep"}' } : part)),
          }
        : message,
    );
    expect(checkConversation(reused, shortenedFirst).shortenedCallWithoutReference).toBe('tool call c1 was shortened without a reference');
  });
});
