import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageText } from '@ollm/core';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { binaryBuilt, runBinary } from './chat-driver.js';
import { temporaryFolder } from './run-ollm.js';

/** The reliability warning of a small model through model summaries (the built binary, piped stdin, fake model server). */
describe.skipIf(!binaryBuilt)('ollm chat warns a small model as its summaries pass what its size keeps well', () => {
  let server: FakeModelServer;
  let folder: ReturnType<typeof temporaryFolder>;
  let env: Record<string, string>;
  beforeAll(async () => {
    // No size in the name: the size comes from the server's parameter_size, as with `ollama run llama3.2`.
    server = await startFakeModelServer({
      models: [{ name: 'llama3.2', family: 'llama', parameterSize: '3.2B', contextLength: 8192 }],
      // Long replies, so a summary has something to shorten; summariser requests get the server's own replies.
      reply: (request) => {
        const last = request.messages.at(-1);
        const text = last ? messageText(last) : '';
        if (text.includes('<conversation>') || text.includes('RESUME')) return undefined;
        return `About "${text.slice(0, 40)}": ${'the tokenizer, the retry loop and the logging setup were reviewed again. '.repeat(24)}`;
      },
    });
    folder = temporaryFolder();
    env = { OLLM_HOME: join(folder.path, 'home'), HOME: folder.path };
  });
  afterAll(async () => {
    await server.close();
    folder.remove();
  });

  it('warns a 3B model at the start, then that it has compacted 3 and 4 times, though it stays critical', async () => {
    const turns = Array.from({ length: 4 }, (_, index) => [
      ...['retries', 'logging', 'the tokenizer'].map((topic) => `Question ${index + 1}: how should the parser handle ${topic}?`),
      '/compact summarize',
    ]).flat();
    const input = [...turns, '/quit'].join('\n');
    const run = await runBinary(
      ['--provider', 'summarize', '--host', server.url, '--model', 'llama3.2', '--context-size', '8192'],
      env,
      folder.path,
      `${input}\n`,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.match(/^compacted with summarize: [\d,]+ -> [\d,]+ tokens$/gm)).toHaveLength(4);
    expect(run.stdout.match(/Context Compression Warning/g)).toHaveLength(3);
    expect(run.stdout).toContain('Your model (llama3.2) starts at reliability critical, before any compaction.');
    expect(run.stdout).toContain('Your model (llama3.2) has compacted 3 times; small models (under 7B) keep 2-3 compactions well.');
    expect(run.stdout).toContain('Your model (llama3.2) has compacted 4 times; small models (under 7B) keep 2-3 compactions well.');
    expect(run.stdout).toContain('Reliability is critical: past 3 compactions, small models may lose context accuracy.');
    expect(run.stdout).not.toContain('has compacted 1 time;');
    expect(run.stdout).not.toContain('has compacted 2 times;');
  });
});
