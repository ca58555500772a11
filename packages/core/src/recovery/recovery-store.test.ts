import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { forgetRegisteredSecrets, registerSecret } from '../secrets/secret-redactor.js';
import { RECOVERY_FOLDER, readRemovedContent, readRemovedEntry, saveRemovedContent } from './recovery-store.js';

let logdir: string;
beforeEach(() => {
  logdir = mkdtempSync(join(tmpdir(), 'ollm-recovery-'));
});
afterEach(() => {
  rmSync(logdir, { recursive: true, force: true });
  forgetRegisteredSecrets();
});

const samples = [
  'plain ascii output\n',
  'CRLF line\r\nand a tab\tand trailing spaces   \r\n',
  'unicode: é ß 日本語 emoji 🚀 and a zero width joiner 👩‍💻',
  '', // an empty tool output is still content that can be recovered
  'x'.repeat(200_000),
];

describe('saveRemovedContent', () => {
  it('stores content byte for byte under removed/<sha256 of its UTF-8 bytes>.txt', () => {
    for (const content of samples) {
      const saved = saveRemovedContent(logdir, content);
      const bytes = Buffer.from(content, 'utf8');
      const expected = createHash('sha256').update(bytes).digest('hex');
      expect(saved.sha256).toBe(expected);
      expect(saved.path).toBe(join(logdir, RECOVERY_FOLDER, `${expected}.txt`));
      expect(readFileSync(saved.path).equals(bytes)).toBe(true);
      expect(readRemovedContent(logdir, saved.sha256)).toBe(content);
    }
  });

  it('stores identical content once and leaves no temporary files', () => {
    const first = saveRemovedContent(logdir, 'same output');
    const second = saveRemovedContent(logdir, 'same output');
    expect(second).toEqual(first);
    saveRemovedContent(logdir, 'other output');
    const files = readdirSync(join(logdir, RECOVERY_FOLDER)).sort();
    expect(files).toHaveLength(2);
    expect(files.every((file) => /^[0-9a-f]{64}\.txt$/.test(file))).toBe(true);
    expect(files).toContain(basename(first.path));
  });

  it('writes a damaged entry again instead of trusting it, so what is reported saved can be read back', () => {
    const saved = saveRemovedContent(logdir, 'the full tool output');
    writeFileSync(saved.path, 'the full to'); // truncated by a crash or an edit
    const again = saveRemovedContent(logdir, 'the full tool output');
    expect(again).toEqual(saved);
    expect(readRemovedContent(logdir, saved.sha256)).toBe('the full tool output');
  });

  it('takes the sha256 a caller computed already and saves under it', () => {
    const content = 'known output';
    const sha256 = createHash('sha256').update(content).digest('hex');
    const saved = saveRemovedContent(logdir, content, sha256);
    expect(saved).toEqual({ sha256, path: join(logdir, RECOVERY_FOLDER, `${sha256}.txt`) });
    expect(readRemovedContent(logdir, sha256)).toBe(content);
  });

  it('creates the logdir when it does not exist yet', () => {
    const nested = join(logdir, 'session', 'logs');
    const saved = saveRemovedContent(nested, 'deep');
    expect(readRemovedContent(nested, saved.sha256)).toBe('deep');
  });

  it('reading an unknown sha256 is an error, not empty content', () => {
    expect(() => readRemovedContent(logdir, '0'.repeat(64))).toThrow(/ENOENT/);
  });

  it('accepts an upper-case sha256 and refuses anything that is not one, before touching the disk', () => {
    const saved = saveRemovedContent(logdir, 'secret-free content');
    expect(readRemovedContent(logdir, saved.sha256.toUpperCase())).toBe('secret-free content');
    writeFileSync(join(logdir, 'outside.txt'), 'must stay unreachable');
    for (const name of ['../outside', `${saved.sha256.slice(0, 12)}`, `${saved.sha256}/../../outside`]) {
      let thrown: unknown;
      try {
        readRemovedContent(logdir, name);
      } catch (error) {
        thrown = error;
      }
      expect(InvalidArgumentError.isInstance(thrown)).toBe(true);
      expect((thrown as InvalidArgumentError).argument).toBe('sha256');
    }
  });

  it('redacts registered secrets before writing (URLs quoted in content stay), keeps the name placeholders give, and tells a redacted entry from a damaged one', () => {
    const key = 'sk-"a\\b"-KEY';
    registerSecret(key);
    const content = JSON.stringify({ text: `the key ${key} and http://me:pw@host/` });
    const saved = saveRemovedContent(logdir, content);
    expect(saved.sha256).toBe(createHash('sha256').update(content).digest('hex'));
    const stored = readRemovedContent(logdir, saved.sha256);
    // The credentials of a URL quoted in the content are content: kept byte for byte.
    expect(stored).toBe('{"text":"the key [redacted] and http://me:pw@host/"}');
    for (const name of readdirSync(join(logdir, RECOVERY_FOLDER))) {
      const text = readFileSync(join(logdir, RECOVERY_FOLDER, name), 'utf8');
      expect(text).not.toContain('KEY');
    }
    expect(readRemovedEntry(saved.path, saved.sha256).state).toBe('redacted');
    // Saved again: the stored text is right, nothing is rewritten; damaged: rewritten.
    writeFileSync(saved.path, 'tampered');
    expect(readRemovedEntry(saved.path, saved.sha256).state).toBe('damaged');
    saveRemovedContent(logdir, content);
    expect(readRemovedContent(logdir, saved.sha256)).toBe(stored);
    expect(readRemovedEntry(saved.path, saved.sha256).state).toBe('redacted');
  });

  it('an entry saved before its secret was registered is rewritten redacted when saved again', () => {
    const content = 'output with late-key-123';
    const saved = saveRemovedContent(logdir, content);
    expect(readRemovedEntry(saved.path, saved.sha256).state).toBe('intact');
    registerSecret('late-key-123');
    saveRemovedContent(logdir, content);
    expect(readRemovedContent(logdir, saved.sha256)).toBe('output with [redacted]');
    forgetRegisteredSecrets();
    saveRemovedContent(logdir, content);
    expect(readRemovedEntry(saved.path, saved.sha256).state).toBe('intact');
    expect(readdirSync(join(logdir, RECOVERY_FOLDER))).toEqual([basename(saved.path)]);
  });
});
