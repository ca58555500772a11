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
