import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { computeSourceDigest } from '@ollm/core';
import { readTranscript } from '@ollm/transcripts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repositoryRoot } from './fixture-paths.js';
import { runOllm, temporaryFolder } from './run-ollm.js';
import { testRegistry } from './test-providers.js';

const samples = [
  ['openai', 'fixtures/formats/openai.json'],
  ['openai', 'fixtures/formats/openai-wrapped.json'],
  ['anthropic', 'fixtures/formats/anthropic.json'],
  ['ollama', 'fixtures/formats/ollama.json'],
  ['gptme', 'fixtures/formats/gptme/conversation.jsonl'],
].filter(([, file]) => existsSync(join(repositoryRoot, file!)));

describe.skipIf(samples.length === 0)('compact writes every format back in the same format', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  beforeEach(() => {
    folder = temporaryFolder();
  });
  afterEach(() => folder.remove());

  it.each(samples)('%s: %s', async (format, file) => {
    const out = join(folder.path, file!.split('/').at(-1)!);
    const run = await runOllm(['--no-plugins', 'compact', file!, '--provider', 'identity', '--out', out], {
      cwd: repositoryRoot,
      env: { OLLM_HOME: join(folder.path, 'home') },
      registry: testRegistry(),
    });
    expect(run.code).toBe(0);
    const original = await readTranscript(join(repositoryRoot, file!));
    const readBack = await readTranscript(out);
    expect(readBack.format).toBe(format);
    expect(readBack.conversations.map((conversation) => computeSourceDigest(conversation.messages))).toEqual(
      original.conversations.map((conversation) => computeSourceDigest(conversation.messages)),
    );
  });
});
