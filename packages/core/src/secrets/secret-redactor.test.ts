import { afterEach, describe, expect, it } from 'vitest';
import { SecretRedactor, forgetRegisteredSecrets, redactSecrets, registerSecret, registeredSecrets, stringifyRedacted } from './secret-redactor.js';

afterEach(() => forgetRegisteredSecrets());

const quoted = 'sk-"quo\\ted"-0123456789';

describe('SecretRedactor', () => {
  it('replaces a key with quotes and backslashes, raw and in the forms JSON and URLs give it', () => {
    const redactor = new SecretRedactor([quoted]);
    expect(redactor.redact(`key ${quoted} end`)).toBe('key [redacted] end');
    const json = JSON.stringify({ text: `key ${quoted}` });
    expect(redactor.redact(json)).toBe('{"text":"key [redacted]"}');
    expect(redactor.redact(JSON.stringify(json))).not.toContain('quo');
    expect(redactor.redact(`?key=${encodeURIComponent(quoted)}`)).toBe('?key=[redacted]');
  });

  it('stringify redacts every string before it is serialised, keys included, and stays valid JSON', () => {
    const redactor = new SecretRedactor([quoted]);
    const value = { a: [`x${quoted}y`, 1, null], [quoted]: { deep: quoted }, n: 2 };
    const text = redactor.stringify(value, 2);
    expect(text).not.toContain('quo');
    expect(JSON.parse(text)).toEqual({ a: ['x[redacted]y', 1, null], '[redacted]': { deep: '[redacted]' }, n: 2 });
  });

  it('redacts a 6-character key wherever it occurs, even inside a word', () => {
    const redactor = new SecretRedactor(['k3y!9z']);
    expect(redactor.redact('k3y!9z and xk3y!9zx')).toBe('[redacted] and x[redacted]x');
  });

  it('redacts a key of 1 to 3 characters only where it stands alone, so ordinary words survive', () => {
    const redactor = new SecretRedactor(['ab']);
    expect(redactor.redact('ab about cab ab. (ab) ab_c')).toBe('[redacted] about cab [redacted]. ([redacted]) ab_c');
  });

  it('replaces the longer of two overlapping secrets whole', () => {
    expect(new SecretRedactor(['secret', 'secret-and-more']).redact('x secret-and-more y secret')).toBe('x [redacted] y [redacted]');
  });

  it('strips URL credentials even with no secret registered', () => {
    expect(new SecretRedactor().redact('at http://user:pw@127.0.0.1:8/v1')).toBe('at http://[redacted]@127.0.0.1:8/v1');
  });

  it('follows the secrets registered for the process after it was made, and ignores empty ones', () => {
    const redactor = new SecretRedactor();
    expect(redactor.redact('late-secret-1')).toBe('late-secret-1');
    registerSecret('late-secret-1');
    registerSecret('');
    registerSecret(undefined);
    registerSecret('late-secret-1');
    expect(registeredSecrets()).toEqual(['late-secret-1']);
    expect(redactor.redact('late-secret-1')).toBe('[redacted]');
    expect(redactSecrets('a late-secret-1 b')).toBe('a [redacted] b');
    expect(stringifyRedacted({ k: 'late-secret-1' })).toBe('{"k":"[redacted]"}');
    expect(redactSecrets('own-secret-22', ['own-secret-22'])).toBe('[redacted]');
  });

  it('is linear on a long run with no secret in it', () => {
    const redactor = new SecretRedactor(['abcdefgh']);
    const text = `${'abcdefg'.repeat(100_000)}${'://'.repeat(100_000)}${'a.'.repeat(100_000)}`;
    expect(redactor.redact(text)).toBe(text);
  });
});
