import { SecretRedactor } from './secret-redactor.js';

/** Somewhere text is written: `process.stdout`, a test's buffer. */
export interface WritableOutput {
  write(chunk: string | Uint8Array): unknown;
}

export interface RedactingOutput extends WritableOutput {
  /** Writes what is held back (the start of what could be a secret); call once output ends. */
  flush(): void;
}

/**
 * Wraps `output` so that nothing written through it shows a secret (`SecretRedactor`): text is
 * redacted before it is passed on. Text arrives in pieces (a reply streams in deltas), so the end
 * of a piece that could begin a secret is held back until the next write or `flush`: a key split
 * across two deltas is still found. Bytes are passed on as they are unless they hold a secret.
 * URL credentials are found within one write (every message the CLI prints is written whole).
 */
export function createRedactingOutput(output: WritableOutput, redactor: SecretRedactor = new SecretRedactor()): RedactingOutput {
  let held = '';
  const release = (text: string) => {
    if (text.length > 0) output.write(redactor.redact(text));
  };
  return {
    write(chunk) {
      const secrets = redactor.secrets;
      if (typeof chunk !== 'string') {
        release(held);
        held = '';
        return output.write(secrets.length === 0 ? chunk : redactBytes(Buffer.from(chunk), redactor));
      }
      const text = held + chunk;
      if (secrets.length === 0) {
        held = '';
        return output.write(redactor.redact(text));
      }
      const redacted = redactor.redact(text);
      const keep = heldBackLength(redacted, secrets);
      held = redacted.slice(redacted.length - keep);
      const ready = redacted.slice(0, redacted.length - keep);
      return ready.length > 0 ? output.write(ready) : true;
    },
    flush() {
      release(held);
      held = '';
    },
  };
}

/** The longest end of `text` that is the start (not the whole) of a secret, in any of its forms. */
function heldBackLength(text: string, secrets: readonly string[]): number {
  let longest = 0;
  for (const secret of secrets) {
    for (const form of [secret, JSON.stringify(secret).slice(1, -1)]) {
      for (let length = Math.min(form.length - 1, text.length); length > longest; length -= 1) {
        if (text.endsWith(form.slice(0, length))) {
          longest = length;
          break;
        }
      }
    }
  }
  return longest;
}

/** Bytes with the secrets in them replaced; the same bytes when there is none. */
function redactBytes(bytes: Buffer, redactor: SecretRedactor): Buffer {
  const found = redactor.secrets.some((secret) => bytes.includes(Buffer.from(secret, 'utf8')));
  return found ? Buffer.from(redactor.redact(bytes.toString('utf8')), 'utf8') : bytes;
}
