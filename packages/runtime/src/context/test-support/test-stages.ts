import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { buildCompactionResult, type ContextProviderV1 } from '@ollm/core';

/** Temporary homes for one test file, removed after each test. */
export function temporaryHomes(prefix: string): () => string {
  const homes: string[] = [];
  afterEach(() => {
    for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
  });
  return () => {
    const home = mkdtempSync(join(tmpdir(), prefix));
    homes.push(home);
    return home;
  };
}

/** A rule stage for the runtime's tests: cuts every tool result to its first 20 characters. */
export const shortenToolResults: ContextProviderV1 = {
  specificationVersion: 'v1',
  name: 'shorten',
  description: 'test stage',
  shouldCompress: () => true,
  async compress(messages, config, context) {
    const startedAt = performance.now();
    const output = messages.map((message) =>
      message.role !== 'tool'
        ? message
        : { ...message, parts: message.parts.map((part) => (part.type === 'tool-result' ? { ...part, output: part.output.slice(0, 20) } : part)) },
    );
    return buildCompactionResult({ input: messages, output, tokens: context.tokens, startedAt });
  },
};
