import { afterEach, describe, expect, it } from 'vitest';
import { createRedactingOutput } from './redacting-output.js';
import { SecretRedactor, forgetRegisteredSecrets, registerSecret } from './secret-redactor.js';

afterEach(() => forgetRegisteredSecrets());

function capture() {
  const chunks: (string | Uint8Array)[] = [];
  return {
    chunks,
    output: { write: (chunk: string | Uint8Array) => chunks.push(chunk) },
    text: () => chunks.map((chunk) => Buffer.from(chunk).toString('utf8')).join(''),
  };
}

describe('createRedactingOutput', () => {
  it('finds a key split across writes (a streamed reply), and flushes what it held back', () => {
    const sink = capture();
    const output = createRedactingOutput(sink.output, new SecretRedactor(['sk-"split\\key-42']));
    for (const delta of ['the key is sk-"sp', 'lit\\k', 'ey-42 and', ' then s']) output.write(delta);
    expect(sink.text()).toBe('the key is [redacted] and then ');
    output.flush();
    expect(sink.text()).toBe('the key is [redacted] and then s');
  });

  it('passes text and bytes through unchanged when no secret is registered, URL credentials aside', () => {
    const sink = capture();
    const output = createRedactingOutput(sink.output);
    const bytes = Uint8Array.from([0xff, 0x00, 0x41]);
    output.write('at http://u:p@h\n');
    output.write(bytes);
    expect(sink.chunks[0]).toBe('at http://[redacted]@h\n');
    expect(sink.chunks[1]).toBe(bytes);
  });

  it('follows secrets registered after it was made, in text and bytes', () => {
    const sink = capture();
    const output = createRedactingOutput(sink.output);
    registerSecret('registered-later');
    output.write('x registered-later\n');
    output.write(Buffer.from('bytes registered-later\n'));
    output.write(Buffer.from('no secret\n'));
    expect(sink.text()).toBe('x [redacted]\nbytes [redacted]\nno secret\n');
  });
});
