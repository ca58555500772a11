import { describe, expect, it } from 'vitest';
import type { Message } from './message.js';
import { messageText, partText, reasoningParts, renderMessage, textPart, toolCalls, toolResults, withParts } from './message-helpers.js';
import { createMessageId } from './message-id.js';

const message: Message = {
  id: 'a1',
  role: 'assistant',
  timestamp: '2026-01-01T00:00:00Z',
  metadata: { source: 'test' },
  parts: [
    { type: 'reasoning', text: 'think first' },
    textPart('Running the tests.'),
    { type: 'tool-call', callId: 'c1', name: 'bash', input: { command: 'pytest' } },
    { type: 'tool-call', callId: 'c2', name: 'bash', input: { command: 'ls' }, rawInput: '{"command": "ls"}' },
    textPart('Done.'),
  ],
};

describe('message helpers', () => {
  it('select parts by kind', () => {
    expect(messageText(message)).toBe('Running the tests.\nDone.');
    expect(toolCalls(message).map((call) => call.callId)).toEqual(['c1', 'c2']);
    expect(reasoningParts(message)).toEqual([{ type: 'reasoning', text: 'think first' }]);
    expect(toolResults(message)).toEqual([]);
  });

  it('partText renders what a model sees, preferring the raw tool input', () => {
    expect(partText(message.parts[2]!)).toBe('bash {"command":"pytest"}');
    expect(partText(message.parts[3]!)).toBe('bash {"command": "ls"}');
    expect(partText({ type: 'tool-result', callId: 'c1', output: 'ok' })).toBe('ok');
    expect(partText({ type: 'file', mediaType: 'image/png', name: 'shot.png' })).toBe('[file shot.png]');
    expect(partText({ type: 'file', mediaType: 'image/png' })).toBe('[file image/png]');
  });

  it('withParts returns a new message keeping id, role, timestamp and metadata', () => {
    const edited = withParts(message, [textPart('short')]);
    expect(edited).not.toBe(message);
    expect(edited).toMatchObject({ id: 'a1', role: 'assistant', timestamp: '2026-01-01T00:00:00Z', metadata: { source: 'test' } });
    expect(edited.parts).toEqual([textPart('short')]);
    expect(message.parts).toHaveLength(5);
  });

  it('renderMessage labels tool data and reasoning', () => {
    const rendered = renderMessage(message);
    expect(rendered.startsWith('assistant: [reasoning] think first\n')).toBe(true);
    expect(rendered).toContain('[tool call bash] {"command":"pytest"}');
    expect(renderMessage({ id: 't', role: 'tool', parts: [{ type: 'tool-result', callId: 'c', output: 'boom', isError: true }] })).toBe(
      'tool: [tool result (error)] boom',
    );
  });

  it('createMessageId makes unique prefixed ids', () => {
    const first = createMessageId();
    expect(first).toMatch(/^msg_[0-9a-f-]{36}$/);
    expect(createMessageId('summary')).toMatch(/^summary_/);
    expect(createMessageId()).not.toBe(first);
  });
});
