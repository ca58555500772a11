import { describe, expect, it } from 'vitest';
import { stripUrlCredentials } from './strip-url-credentials.js';

describe('stripUrlCredentials', () => {
  it.each([
    ['http://user:KEY@127.0.0.1:9/api/show', 'http://[redacted]@127.0.0.1:9/api/show'],
    ['fetch https://tok3n@github.com/o/r.git failed', 'fetch https://[redacted]@github.com/o/r.git failed'],
    ['postgres://a:p@ss@db:5432/x', 'postgres://[redacted]@db:5432/x'],
    ['"url":"http://u:p@h","next":"a@b"', '"url":"http://[redacted]@h","next":"a@b"'],
    ['two: http://a:b@h1 and ftp://c:d@h2/', 'two: http://[redacted]@h1 and ftp://[redacted]@h2/'],
    ['x://u:p@h://v:q@k', 'x://[redacted]@h://[redacted]@k'],
  ])('%s', (text, expected) => {
    expect(stripUrlCredentials(text)).toBe(expected);
  });

  it.each([
    'http://127.0.0.1:11434',
    'https://example.com/a?mail=bob@example.com',
    'https://example.com/#x@y',
    'mail bob@example.com',
    'ssh git@github.com:o/r.git',
    'http://@host',
    "value: 'http://]@N.AN', not '////]@N.AN'",
    'http://[::1]@host',
    '',
  ])('leaves %s alone', (text) => {
    expect(stripUrlCredentials(text)).toBe(text);
  });
});
