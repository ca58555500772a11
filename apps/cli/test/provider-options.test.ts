import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messageText } from '@ollm/core';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { ChatDriver, binaryBuilt } from './chat-driver.js';
import { fixturesPresent, sweAgentFixture } from './fixture-paths.js';
import { runOllm, temporaryFolder } from './run-ollm.js';
import { testRegistry } from './test-providers.js';

const trimPresent = existsSync(new URL('../../../plugins/trim/src/index.ts', import.meta.url));

interface Report {
  readonly tokensAfter: number;
}

describe.skipIf(!fixturesPresent || !trimPresent)('ollm compact: providerOptions from config and --provider-option', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let env: Record<string, string>;
  beforeEach(() => {
    folder = temporaryFolder();
    env = { OLLM_HOME: join(folder.path, 'home'), HOME: folder.path };
  });
  afterEach(() => folder.remove());

  const compact = async (...args: string[]) => {
    const { default: trim } = await import('@ollm/plugin-trim');
    const registry = testRegistry();
    registry.register(trim, '@ollm/plugin-trim');
    return runOllm(['--no-plugins', 'compact', sweAgentFixture, '--provider', 'trim', '--json', '--out', join(folder.path, 'out.traj.json'), ...args], {
      cwd: folder.path,
      env,
      registry,
    });
  };
  const tokensAfter = async (...args: string[]) => {
    const run = await compact(...args);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    return (JSON.parse(run.stdout) as Report).tokensAfter;
  };
  const writeConfig = (config: unknown) => writeFileSync(join(folder.path, '.ollmrc.json'), JSON.stringify(config));

  it('gives trim its own option from the flag: placeholders without preview lines are smaller', async () => {
    const withPreview = await tokensAfter();
    const withoutPreview = await tokensAfter('--provider-option', 'trim.previewLines=0');
    expect(withoutPreview).toBeLessThan(withPreview);
  });

  it('reads providerOptions from the project config, and the flag wins key by key', async () => {
    const withPreview = await tokensAfter();
    const withoutPreview = await tokensAfter('--provider-option', 'trim.previewLines=0');
    expect(withoutPreview).toBeLessThan(withPreview);
    writeConfig({ providerOptions: { trim: { previewLines: 0 } } });
    expect(await tokensAfter()).toBe(withoutPreview);
    expect(await tokensAfter('--provider-option', 'trim.previewLines=3')).toBe(withPreview);
  });

  it('gives each stage of a pipeline its own options', async () => {
    const withPreview = await tokensAfter('--provider', 'identity,trim');
    expect(await tokensAfter('--provider', 'identity,trim', '--provider-option', 'trim.previewLines=0')).toBeLessThan(withPreview);
  });

  it('names the file and the key of an invalid providerOptions value (exit 2, nothing written)', async () => {
    writeConfig({ providerOptions: { trim: 5 } });
    const run = await compact();
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(new RegExp(`^ollm: ${join(folder.path, '.ollmrc.json').replace(/[.]/g, '\\.')}: providerOptions\\.trim: .+\\n$`));
    expect(existsSync(join(folder.path, 'out.traj.json'))).toBe(false);
  });

  it('refuses a malformed --provider-option with the form to use', async () => {
    const run = await compact('--provider-option', 'previewLines=0');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('ollm: Invalid --provider-option "previewLines=0": use PROVIDER.KEY=VALUE, e.g. trim.previewLines=0.\n');
  });

  it('warns about options for a provider that is not loaded (a typo), and still compacts', async () => {
    const run = await compact('--provider-option', 'tirm.previewLines=0');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('ollm: warning: providerOptions.tirm: no provider "tirm" is loaded, so its options are not used\n');
  });

  it('shows each provider option in `ollm config`, with the file it came from', async () => {
    writeConfig({ providerOptions: { trim: { previewLines: 0, keep: ['a', 'b'] } } });
    const run = await runOllm(['config', '--json'], { cwd: folder.path, env });
    const shown = JSON.parse(run.stdout) as { config: { providerOptions: unknown }; sources: Record<string, string> };
    expect(shown.config.providerOptions).toEqual({ trim: { previewLines: 0, keep: ['a', 'b'] } });
    expect(shown.sources['providerOptions.trim.previewLines']).toBe(join(folder.path, '.ollmrc.json'));
    const table = await runOllm(['config'], { cwd: folder.path, env });
    expect(table.stdout).toMatch(/^providerOptions\.trim\.keep\s+\["a","b"\]\s+\S+\.ollmrc\.json$/m);
  });
});

/** Long replies of about 150 tokens: over trim's extractive floor only when the option lowers it. */
function chatReply(question: string): string {
  return [
    `About "${question.slice(0, 40)}": I edited src/parser.ts and decided to keep the retry layer.`,
    'The failing test in tests/parser.test.ts came from a stale fixture, which I regenerated.',
    ...Array.from({ length: 6 }, (_, index) => `Detail ${index + 1}: the tokenizer, the retry loop and the logging setup were reviewed again.`),
  ].join(' ');
}

describe.skipIf(!binaryBuilt)('ollm chat: providerOptions reach the providers of /compact', () => {
  let server: FakeModelServer;
  let folder: ReturnType<typeof temporaryFolder>;
  let env: Record<string, string>;
  beforeAll(async () => {
    server = await startFakeModelServer({ reply: (request) => chatReply(messageText(request.messages.at(-1)!)) });
    folder = temporaryFolder();
    env = { OLLM_HOME: join(folder.path, 'home'), HOME: folder.path };
  });
  afterAll(async () => {
    await server.close();
    folder.remove();
  });

  // Seven turns fill the 2,048-token window past the compaction target, not to the trigger.
  const chat = async (cwd: string, ...flags: string[]) => {
    const driver = new ChatDriver(['--host', server.url, '--model', 'fake-llama:8b', '--context-size', '2048', ...flags], env, cwd);
    driver.send(...Array.from({ length: 7 }, (_, index) => `Question ${index + 1}: how should the parser handle retries?`), '/compact trim', '/quit');
    const run = await driver.end();
    expect(run.code).toBe(0);
    return run;
  };

  it('trim compresses old replies only when --provider-option or the config lowers its extractive floor', async () => {
    const plain = await chat(folder.path);
    expect(plain.stdout).toMatch(/^nothing to compact with trim: /m);
    expect(plain.stdout).not.toMatch(/^compacted with/m);

    const flagged = await chat(folder.path, '--provider-option', 'trim.extractiveMinTokens=50');
    expect(flagged.stderr).toBe('');
    expect(flagged.stdout).toMatch(/^compacted with trim: [\d,]+ -> [\d,]+ tokens$/m);

    const configured = join(folder.path, 'configured');
    mkdirSync(configured);
    writeFileSync(join(configured, '.ollmrc.json'), JSON.stringify({ providerOptions: { trim: { extractiveMinTokens: 50 } } }));
    expect((await chat(configured)).stdout).toMatch(/^compacted with trim: [\d,]+ -> [\d,]+ tokens$/m);
  });
});
