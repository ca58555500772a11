import { readFileSync } from 'node:fs';
import { InvalidTranscriptError } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { detectFormat } from './detect-format.js';
import { fixture, packageFixture } from './test-support/fixture-paths.js';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from './transcript.js';

const samples: [string, TranscriptFormat][] = [
  ['formats/openai.json', 'openai'],
  ['formats/openai-wrapped.json', 'openai'],
  ['formats/anthropic.json', 'anthropic'],
  ['formats/ollama.json', 'ollama'],
  ['formats/gptme/conversation.jsonl', 'gptme'],
  ['swe-agent-django/django__django-14915.traj.json', 'swe-agent'],
  ['tau-bench-airline/gpt-4o-airline.sample.json', 'tau-bench'],
];
/** Samples of the formats whose fixtures live in this package (packages/transcripts/fixtures). */
const packageSamples: [string, TranscriptFormat][] = [
  ['swe-agent-classic/calc__mean-empty.traj', 'swe-agent-classic'],
  ['ollm-session/fixture-session.json', 'ollm-session'],
];

describe('detectFormat', () => {
  it.each(samples)('detects %s as %s', (path, format) => {
    expect(detectFormat(readFileSync(fixture(path), 'utf8'), path)).toBe(format);
  });

  it.each(packageSamples)('detects the package fixture %s as %s', (path, format) => {
    expect(detectFormat(readFileSync(packageFixture(path), 'utf8'), path)).toBe(format);
  });

  it('covers every supported format', () => {
    expect(new Set([...samples, ...packageSamples].map(([, format]) => format))).toEqual(new Set(TRANSCRIPT_FORMATS));
  });

  it.each([
    ['an Anthropic body without special blocks', { system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }] }, 'anthropic'],
    ['a bare Anthropic array with tool_use', [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'x', input: {} }] }], 'anthropic'],
    ['an Ollama array with object arguments', [{ role: 'assistant', content: '', tool_calls: [{ function: { name: 'x', arguments: {} } }] }], 'ollama'],
    ['a plain message array', [{ role: 'user', content: 'hi' }], 'openai'],
    ['an empty request body', { messages: [] }, 'openai'],
    ['a single gptme line', { role: 'user', content: 'hi', timestamp: '2025-01-01T00:00:00' }, 'gptme'],
    ['a trajectory with an exit message', { messages: [{ role: 'exit', content: '' }] }, 'swe-agent'],
    ['a classic SWE-agent trajectory', { trajectory: [], history: [{ role: 'system', content: 'x', agent: 'main' }], info: {} }, 'swe-agent-classic'],
    ['an empty session export', { sessionId: 's1', startTime: '2026-01-01T00:00:00.000Z', messages: [], toolCalls: [] }, 'ollm-session'],
    [
      'a session export whose messages are malformed (read as a session, so the error says what is wrong)',
      { sessionId: 's1', toolCalls: [], messages: 7 },
      'ollm-session',
    ],
  ] as const)('detects %s', (_label, document, format) => {
    expect(detectFormat(JSON.stringify(document), 'sample.json')).toBe(format);
  });

  it('rejects unknown JSON with the list of supported formats', () => {
    const error = captureError(() => detectFormat(readFileSync(fixture('invalid/unknown-format.json'), 'utf8'), 'unknown-format.json'));
    expect(error.reason).toBe(
      'unknown transcript format (supported formats: openai, anthropic, ollama, gptme, swe-agent, tau-bench, swe-agent-classic, ollm-session)',
    );
  });

  it('rejects an empty file', () => {
    expect(captureError(() => detectFormat('  \n', 'empty.json')).reason).toBe('the file is empty');
  });
});

function captureError(run: () => unknown): InvalidTranscriptError {
  try {
    run();
  } catch (error) {
    if (InvalidTranscriptError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InvalidTranscriptError');
}
