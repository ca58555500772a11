import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from './invalid-argument-error.js';
import { InvalidProviderOutputError } from './invalid-provider-output-error.js';
import { InvalidTranscriptError } from './invalid-transcript-error.js';
import { NoSuchProviderError } from './no-such-provider-error.js';
import { OllmError } from './ollm-error.js';
import { PluginLoadError } from './plugin-load-error.js';
import { ProviderExecutionError } from './provider-execution-error.js';

interface ErrorClass {
  isInstance(error: unknown): boolean;
  readonly name: string;
}

/** One example of every error class, with the words its message must contain. */
const examples: { type: ErrorClass; error: OllmError; code: string; mentions: string[] }[] = [
  { type: OllmError, error: new OllmError({ code: 'custom', message: 'something broke' }), code: 'custom', mentions: ['something broke'] },
  {
    type: NoSuchProviderError,
    error: new NoSuchProviderError({ providerName: 'zip', available: ['mask', 'trim'] }),
    code: 'no-such-provider',
    mentions: ['"zip"', 'mask, trim'],
  },
  {
    type: PluginLoadError,
    error: new PluginLoadError({ packageName: 'ollm-plugin-x', path: '/project/node_modules/ollm-plugin-x', cause: new Error('boom') }),
    code: 'plugin-load',
    mentions: ['ollm-plugin-x', '/project/node_modules/ollm-plugin-x', 'boom'],
  },
  {
    type: InvalidProviderOutputError,
    error: new InvalidProviderOutputError({ provider: 'trim', rule: 'tool-pairing', detail: 'call "c1" lost its result' }),
    code: 'invalid-provider-output',
    mentions: ['"trim"', '"tool-pairing"', 'call "c1" lost its result'],
  },
  {
    type: InvalidTranscriptError,
    error: new InvalidTranscriptError({ file: 'chat.jsonl', position: 'line 12', reason: 'unexpected token' }),
    code: 'invalid-transcript',
    mentions: ['chat.jsonl', 'line 12', 'unexpected token'],
  },
  {
    type: ProviderExecutionError,
    error: new ProviderExecutionError({ provider: 'goal-aware', cause: new Error('model timed out') }),
    code: 'provider-execution',
    mentions: ['"goal-aware"', 'model timed out'],
  },
  {
    type: InvalidArgumentError,
    error: new InvalidArgumentError({ argument: 'limit', message: 'limit must be a positive integer' }),
    code: 'invalid-argument',
    mentions: ['limit must be a positive integer'],
  },
];

describe('OllmError and its subclasses', () => {
  for (const { type, error, code, mentions } of examples) {
    describe(type.name, () => {
      it('isInstance is true for its own class and for the base', () => {
        expect(type.isInstance(error)).toBe(true);
        expect(OllmError.isInstance(error)).toBe(true);
        expect(error).toBeInstanceOf(Error);
      });

      it('isInstance is false for the other classes, plain errors and non-errors', () => {
        for (const other of examples) {
          if (other.type === type || type === OllmError) continue;
          expect(type.isInstance(other.error)).toBe(false);
        }
        expect(type.isInstance(new Error('plain'))).toBe(false);
        expect(type.isInstance({ code, message: 'looks alike' })).toBe(false);
        expect(type.isInstance(undefined)).toBe(false);
        expect(type.isInstance('error')).toBe(false);
      });

      it('has its code and name, and a message naming what it should', () => {
        expect(error.code).toBe(code);
        expect(error.name).toBe(type.name);
        for (const words of mentions) expect(error.message).toContain(words);
      });
    });
  }

  it('keeps the readonly data fields', () => {
    const noSuch = new NoSuchProviderError({ providerName: 'zip', available: [] });
    expect(noSuch.providerName).toBe('zip');
    expect(noSuch.message).toContain('(none)');
    const invalid = new InvalidProviderOutputError({ provider: 'p', rule: 'not-larger', detail: 'd' });
    expect([invalid.provider, invalid.rule, invalid.detail]).toEqual(['p', 'not-larger', 'd']);
    const transcript = new InvalidTranscriptError({ file: 'f', position: 'byte 3', reason: 'r', cause: new SyntaxError('x') });
    expect([transcript.file, transcript.position, transcript.reason]).toEqual(['f', 'byte 3', 'r']);
    expect(transcript.cause).toBeInstanceOf(SyntaxError);
    const cause = new Error('inner');
    expect(new ProviderExecutionError({ provider: 'p', cause }).cause).toBe(cause);
    expect(new PluginLoadError({ packageName: 'n', path: '/p', cause: 'text cause' }).message).toContain('text cause');
  });

  it('survives a duplicated copy of the package (instanceof fails, isInstance does not)', async () => {
    // A second, independent copy of the error classes, as when two versions of @ollm/core are
    // installed side by side: same source, different module instances.
    const folder = mkdtempSync(join(tmpdir(), 'ollm-error-copy-'));
    try {
      for (const file of ['ollm-error.ts', 'no-such-provider-error.ts']) {
        copyFileSync(fileURLToPath(new URL(`./${file}`, import.meta.url)), join(folder, file));
      }
      const copy = (await import(
        /* @vite-ignore */ pathToFileURL(join(folder, 'no-such-provider-error.ts')).href
      )) as typeof import('./no-such-provider-error.js');
      const copyBase = (await import(/* @vite-ignore */ pathToFileURL(join(folder, 'ollm-error.ts')).href)) as typeof import('./ollm-error.js');
      expect(copyBase.OllmError).not.toBe(OllmError);
      const foreign = new copy.NoSuchProviderError({ providerName: 'zip', available: [] });
      expect(foreign instanceof NoSuchProviderError).toBe(false);
      expect(foreign instanceof OllmError).toBe(false);
      expect(NoSuchProviderError.isInstance(foreign)).toBe(true);
      expect(OllmError.isInstance(foreign)).toBe(true);
      expect(copyBase.OllmError.isInstance(new PluginLoadError({ packageName: 'a', path: '/a', cause: 'x' }))).toBe(true);
      expect(copy.NoSuchProviderError.isInstance(new NoSuchProviderError({ providerName: 'a', available: [] }))).toBe(true);
      expect(PluginLoadError.isInstance(foreign)).toBe(false);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
