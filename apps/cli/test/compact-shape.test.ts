import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContextProviderV2 } from '@ollm/core';
import { runOllm, temporaryFolder } from './run-ollm.js';
import { testRegistry } from './test-providers.js';

const anthropicFixture = fileURLToPath(new URL('../../../fixtures/formats/anthropic.json', import.meta.url));
const openaiFixture = fileURLToPath(new URL('../../../fixtures/formats/openai.json', import.meta.url));

/** Drops every assistant turn (its calls and their results with it): user messages end up side by side. */
const joinsUserTurns: ContextProviderV2 = {
  specificationVersion: 'v2',
  name: 'join-users',
  async compress({ messages }) {
    return {
      messages: messages.filter((message) => message.role === 'system' || message.role === 'user'),
    };
  },
};

describe('ollm compact --shape', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  beforeEach(() => {
    folder = temporaryFolder();
  });
  afterEach(() => folder.remove());

  const compact = (...args: string[]) => {
    const registry = testRegistry();
    registry.register(joinsUserTurns, '(test)');
    return runOllm(['--no-plugins', 'compact', ...args, '--provider', 'join-users', '--json'], {
      cwd: folder.path,
      env: { OLLM_HOME: join(folder.path, 'home') },
      registry,
    });
  };

  it('checks an Anthropic file against the strict shape: an output with two user turns side by side is refused', async () => {
    const run = await compact(anthropicFixture);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/message-shape/);
    expect(run.stderr).toMatch(/alternation/);
  });

  it('--shape openai relaxes it; an OpenAI file is checked with the OpenAI rules by default', async () => {
    expect((await compact(anthropicFixture, '--shape', 'openai')).code).toBe(0);
    expect((await compact(openaiFixture)).code).toBe(0);
    const strict = await compact(openaiFixture, '--shape', 'strict');
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/alternation/);
  });

  it('refuses an unknown --shape before reading the file', async () => {
    const run = await compact(join(folder.path, 'missing.json'), '--shape', 'loose');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('ollm: Unknown --shape "loose". Shapes: strict, openai.\n');
  });
});

describe('ollm compact --out', () => {
  it('refuses to replace the input unless --in-place, and leaves it untouched', async () => {
    const folder = temporaryFolder();
    try {
      const file = join(folder.path, 'run.json');
      const original = readFileSync(anthropicFixture, 'utf8');
      writeFileSync(file, original);
      const env = { OLLM_HOME: join(folder.path, 'home') };
      const refused = await runOllm(['--no-plugins', 'compact', file, '--provider', 'identity', '--out', 'run.json'], {
        cwd: folder.path,
        env,
        registry: testRegistry(),
      });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(
        'ollm: --out run.json is the input file: it would be replaced by its compacted version. Write elsewhere, or pass --in-place to replace it.\n',
      );
      expect(readFileSync(file, 'utf8')).toBe(original);
      const inPlace = await runOllm(['--no-plugins', 'compact', file, '--provider', 'identity', '--out', file, '--in-place'], {
        cwd: folder.path,
        env,
        registry: testRegistry(),
      });
      expect(inPlace.code).toBe(0);
    } finally {
      folder.remove();
    }
  });
});
