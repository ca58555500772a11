import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHAT_PATHS, startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { binaryBuilt, runBinary } from './chat-driver.js';
import { sweAgentFixture } from './fixture-paths.js';
import { runOllm, temporaryFolder } from './run-ollm.js';

const chatPaths = CHAT_PATHS;

describe('model server flags: --host / --base-url checked, --timeout and config timeout', () => {
  let server: FakeModelServer;
  let folder: ReturnType<typeof temporaryFolder>;
  beforeAll(async () => {
    server = await startFakeModelServer();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    folder = temporaryFolder();
  });
  afterEach(() => {
    server.setFault([]);
    folder.remove();
  });

  const transcript = sweAgentFixture;
  const compact = (...flags: string[]) =>
    runOllm(['compact', transcript, '--provider', 'summarize', '--model', 'fake-llama:8b', '--json', ...flags], {
      cwd: folder.path,
      env: { OLLM_HOME: join(folder.path, 'home') },
    });

  it.each([
    ['not a url', /--host "not a url" is not a URL/],
    ['ftp://127.0.0.1:2121', /--host "ftp:\/\/127\.0\.0\.1:2121" uses ftp:\/\/; model servers are reached over http:\/\/ or https:\/\//],
    ['http://user:SECRET-KEY@127.0.0.1:9', /credentials in the URL are not used/],
  ])('refuses --host %j with exit 2, before reading anything, and never prints a credential', async (host, message) => {
    const run = await compact('--host', host);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toContain('SECRET-KEY');
    expect(
      run.stderr
        .split('\n')
        .filter((line) => line.length > 0)
        .every((line) => line.startsWith('ollm: ')),
    ).toBe(true);
  });

  it('refuses a --base-url with credentials, naming the flag', async () => {
    const run = await compact('--api', 'openai', '--base-url', 'https://me:SECRET-KEY@example.invalid/v1');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^ollm: --base-url "https:\/\/example\.invalid\/v1": credentials in the URL are not used/);
    expect(run.stderr).not.toContain('SECRET-KEY');
  });

  it('refuses a --timeout that is not a positive number of seconds', async () => {
    for (const value of ['0', '-3', 'soon', '']) {
      const run = await compact('--host', server.url, '--timeout', value);
      expect(run.code, value).toBe(2);
      expect(run.stderr, value).toMatch(/^ollm: Invalid --timeout ".*": use a number of seconds above 0/);
    }
  });

  it('--timeout bounds a model call that hangs (exit 3, the limit named)', async () => {
    server.setFault({ kind: 'hang', times: 'always', paths: chatPaths });
    const run = await compact('--host', server.url, '--timeout', '0.4');
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/did not answer within 400 ms/);
  });

  it('the config key timeout does the same, and the flag wins over it', async () => {
    server.setFault({ kind: 'hang', times: 'always', paths: chatPaths });
    writeFileSync(join(folder.path, '.ollmrc.json'), JSON.stringify({ timeout: 0.3 }));
    const fromConfig = await compact('--host', server.url);
    expect(fromConfig.code).toBe(3);
    expect(fromConfig.stderr).toMatch(/did not answer within 300 ms/);
    const fromFlag = await compact('--host', server.url, '--timeout', '0.5');
    expect(fromFlag.stderr).toMatch(/did not answer within 500 ms/);
  });

  it.runIf(binaryBuilt)('the chat takes --timeout too, and refuses a bad --host with exit 2', async () => {
    server.setFault({ kind: 'hang', times: 'always', paths: chatPaths });
    const env = { OLLM_HOME: join(folder.path, 'home') };
    const run = await runBinary(['--host', server.url, '--model', 'fake-llama:8b', '--context-size', '2048', '--timeout', '0.4'], env, folder.path, 'hello\n');
    expect(run.stderr).toMatch(/did not answer within 400 ms/);
    const bad = await runBinary(['--host', 'ftp://127.0.0.1:2121'], env, folder.path, 'hello\n');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^ollm: --host "ftp:\/\/127\.0\.0\.1:2121" uses ftp:\/\//);
  });
});
