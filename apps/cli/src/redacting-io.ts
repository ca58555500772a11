import { createRedactingOutput } from '@ollm/core';
import type { CliIo } from './cli-io.js';

export interface RedactingIo {
  /** The same io, its stdout and stderr redacted. */
  readonly io: CliIo;
  /** Writes what is held back (the start of what could be a secret); once the command ends. */
  flush(): void;
}

/**
 * The command's io with stdout and stderr passed through core's redaction (`createRedactingOutput`):
 * no registered secret (the API key, a server URL's password) and no URL credentials reach the
 * terminal, whatever prints them (a streamed reply, an echoed input line, a warning, an error).
 * Command modules bring it (`defineCommand`), so the dispatcher loads no `@ollm/*` for it.
 */
export function redactingIo(io: CliIo): RedactingIo {
  const stdout = createRedactingOutput(io.stdout);
  const stderr = createRedactingOutput(io.stderr);
  return {
    io: { ...io, stdout, stderr },
    flush: () => {
      stdout.flush();
      stderr.flush();
    },
  };
}
