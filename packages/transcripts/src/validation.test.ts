import { readFileSync } from 'node:fs';
import { InvalidTranscriptError } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { parseTranscript } from './parse-transcript.js';
import { readTranscript } from './read-transcript.js';
import { fixture } from './test-support/fixture-paths.js';
import type { TranscriptFormat } from './transcript.js';
import { firstInvalidUtf8Offset } from './validation/decode-utf8.js';

async function errorOf(run: () => unknown): Promise<InvalidTranscriptError> {
  try {
    await run();
  } catch (error) {
    if (InvalidTranscriptError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InvalidTranscriptError');
}

describe('invalid samples', () => {
  it.each([
    ['malformed.json', 'line 5, column 3', /^malformed JSON: expected ',' or ']'/],
    ['malformed.jsonl', 'line 3, column 38', /^malformed JSON: unterminated string/],
    ['unknown-role.json', 'message 2', /^unknown role "robot"/],
    ['orphan-tool-result.json', 'message 3', /^tool result for call "call_missing" has no earlier tool call$/],
    ['non-object.json', 'message 1', /^a message must be an object, got a string$/],
    ['wrong-type.json', 'message 1', /^content must be a string, an array or null, got a number$/],
    ['tau-bench-orphan.json', 'conversation task-7-trial-1, message 2', /^tool result for call "call_ghost"/],
    ['not-utf8.json', 'byte 36', /^the file is not valid UTF-8$/],
    ['unknown-format.json', 'line 1', /^unknown transcript format \(supported formats: openai, anthropic/],
  ])('%s fails at %s', async (name, position, reason) => {
    const path = fixture('invalid', name);
    const error = await errorOf(() => readTranscript(path));
    expect(error.file).toBe(path);
    expect(error.position).toBe(position);
    expect(error.reason).toMatch(reason);
    expect(error.message).toBe(`${path}: ${position}: ${error.reason}`);
  });

  it('names the line and column of malformed JSON whatever V8 reports', async () => {
    const cases: [string, string][] = [
      ['{"a":}', 'line 1, column 6'],
      ['[1,2,,3]', 'line 1, column 6'],
      ['\n\n  {"messages": tru}', 'line 3, column 16'],
      ['[{"role": "user"}] x', 'line 1, column 20'],
      ['{"messages": [', 'line 1, column 15'],
    ];
    for (const [text, position] of cases) {
      expect((await errorOf(() => parseTranscript(text, { file: 'inline.json' }))).position).toBe(position);
    }
  });

  it.each([
    ['anthropic', { messages: [{ role: 'tool', content: 'x' }] }, 'message 0', /^unknown role "tool" \(expected one of: user, assistant, system\)/],
    ['anthropic', { messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'nope', content: 'x' }] }] }, 'message 0', /no earlier tool call/],
    ['anthropic', { messages: [{ role: 'user', content: [{ type: 'video' }] }] }, 'message 0, block 0', /unknown content block type "video"/],
    ['ollama', { messages: [{ role: 'tool', content: 'x', tool_name: 'clock' }] }, 'message 0', /tool result of "clock" has no earlier tool call/],
    [
      'openai',
      [{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'x', arguments: 7 } }] }],
      'message 0, tool call 0',
      /function.arguments must be a string, got a number/,
    ],
    ['openai', [{ role: 'tool', content: 'x' }], 'message 0', /tool_call_id of a tool message must be a string, got nothing$/],
    ['gptme', [{ role: 'tool', content: 'x', timestamp: 't' }], 'line 1', /unknown role "tool" \(expected one of: system, user, assistant\)/],
    ['openai', [{ role: 'user', text: 'hi' }], 'message 0', /^a chat message must have "content" \(this one has: role, text\)$/],
    ['openai', { messages: [{ role: 'assistant', tool_calls: [] }] }, 'message 0', /^a chat message must have "content" \(this one has: role, tool_calls\)$/],
  ] as const)('%s: rejects %j at %s', async (format, document, position, reason) => {
    const text = format === 'gptme' ? document.map((line) => JSON.stringify(line)).join('\n') : JSON.stringify(document);
    const error = await errorOf(() => parseTranscript(text, { file: 'inline', format: format as TranscriptFormat }));
    expect(error.position).toBe(position);
    expect(error.reason).toMatch(reason);
  });

  it.each([
    [
      'ollm messages without the session fields',
      { messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }] },
      /messages with "parts" are ollm's own layout/,
    ],
    ['messages that are not chat messages', { messages: [{ role: 'user', body: 'hi' }] }, /^a chat message must have "content" \(this one has: role, body\)$/],
    ['a bare array of role-only objects', [{ role: 'user' }, { role: 'assistant' }], /^a chat message must have "content" \(this one has: role\)$/],
  ])('an object the OpenAI reader does not understand is an error, never an empty conversation: %s', async (_label, document, reason) => {
    const error = await errorOf(() => parseTranscript(JSON.stringify(document), { file: 'odd.json' }));
    expect(error.file).toBe('odd.json');
    expect(error.position).toBe('message 0');
    expect(error.reason).toMatch(reason);
  });

  it('rejects an unknown format option with the supported list', async () => {
    const error = await errorOf(() => parseTranscript('[]', { file: 'x', format: 'yaml' as TranscriptFormat }));
    expect(error.reason).toMatch(/supported formats: openai, anthropic, ollama, gptme, swe-agent, tau-bench, swe-agent-classic, ollm-session\)$/);
  });

  it('finds the first invalid UTF-8 sequence', () => {
    expect(firstInvalidUtf8Offset(Buffer.from('héllo', 'utf8'))).toBe(6);
    expect(firstInvalidUtf8Offset(Uint8Array.from([0x61, 0xc0, 0x80]))).toBe(1); // overlong
    expect(firstInvalidUtf8Offset(Uint8Array.from([0x61, 0x62, 0xe2, 0x82]))).toBe(2); // cut short
    expect(firstInvalidUtf8Offset(Uint8Array.from([0xed, 0xa0, 0x80]))).toBe(0); // surrogate
    expect(readFileSync(fixture('invalid', 'not-utf8.json'))[36]).toBe(0xe9);
  });
});
