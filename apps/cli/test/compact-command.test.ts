import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCompactionResult, computeSourceDigest, createTokenizer, sha256Hex, TokenCounter, type ContextProviderV1 } from '@ollm/core';
import { readTranscript } from '@ollm/transcripts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixturesPresent, sweAgentFixture, tauBenchFixture } from './fixture-paths.js';
import { runOllm, temporaryFolder } from './run-ollm.js';
import { testRegistry } from './test-providers.js';

interface ConversationReport {
  conversation: string;
  tokensBefore: number;
  tokensAfter: number;
  limit: number;
  sourceDigest: string;
  coveredThrough: number;
  removed: { sha256: string; path?: string; messageId: string; originalTokens: number }[];
  limitations: string[];
  timeMs: number;
}

const tokens = new TokenCounter(createTokenizer('o200k_base'));

describe.skipIf(!fixturesPresent)('ollm compact', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let env: Record<string, string>;
  beforeEach(() => {
    folder = temporaryFolder();
    env = { OLLM_HOME: join(folder.path, 'home'), HOME: folder.path };
  });
  afterEach(() => folder.remove());

  const compact = (args: string[]) => runOllm(['--no-plugins', 'compact', ...args], { cwd: folder.path, env, registry: testRegistry() });

  it('writes the transcript to stdout and a one-line summary to stderr', async () => {
    const run = await compact([sweAgentFixture, '--provider', 'identity']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^identity: 18,553 -> 18,553 tokens \(\+0\.0%\), 0 pieces saved under ~\/home\/removed; limit not reached\n$/);
    const written = join(folder.path, 'stdout.traj.json');
    writeFileSync(written, run.stdoutBytes);
    const original = await readTranscript(sweAgentFixture);
    const readBack = await readTranscript(written);
    expect(readBack.format).toBe('swe-agent');
    expect(computeSourceDigest(readBack.conversations[0]!.messages)).toBe(computeSourceDigest(original.conversations[0]!.messages));
  });

  it('writes --out atomically and reports in --json; removed content is saved under --logdir', async () => {
    const out = join(folder.path, 'small.traj.json');
    const logdir = join(folder.path, 'logs');
    const run = await compact([sweAgentFixture, '--provider', 'placeholder', '--out', out, '--logdir', logdir, '--json', '--limit', '9000']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as ConversationReport & { provider: string; out: string; format: string };
    expect(Object.keys(report).sort()).toEqual(
      [
        'conversation',
        'coveredThrough',
        'file',
        'format',
        'limit',
        'limitations',
        'out',
        'provider',
        'removed',
        'sourceDigest',
        'timeMs',
        'tokensAfter',
        'tokensBefore',
      ].sort(),
    );
    expect(report).toMatchObject({ provider: 'placeholder', format: 'swe-agent', out, limit: 9000, tokensBefore: 18553, coveredThrough: 119 });
    const readBack = await readTranscript(out);
    expect(tokens.countMessages(readBack.conversations[0]!.messages)).toBe(report.tokensAfter);
    expect(report.tokensAfter).toBeLessThan(report.tokensBefore);
    expect(report.removed.length).toBeGreaterThan(0);
    for (const piece of report.removed) {
      expect(piece.path).toBe(join(logdir, 'removed', `${piece.sha256}.txt`));
      expect(sha256Hex(readFileSync(piece.path!))).toBe(piece.sha256);
    }
  });

  it('defaults the limit to half of each conversation', async () => {
    const run = await compact([sweAgentFixture, '--provider', 'identity', '--json']);
    const report = JSON.parse(run.stdout) as ConversationReport & { out: null };
    expect(report.limit).toBe(Math.floor(18553 / 2));
    expect(report.out).toBeNull();
  });

  it('rejects output that breaks an integrity rule: exit 1, provider and rule named, --out untouched', async () => {
    const out = join(folder.path, 'out.json');
    writeFileSync(out, 'previous content');
    const run = await compact([sweAgentFixture, '--provider', 'rule-breaker', '--out', out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^ollm: Provider "rule-breaker" broke integrity rule "user-unchanged": [^\n]+\n$/);
    expect(readFileSync(out, 'utf8')).toBe('previous content');
    expect(run.stdout).toBe('');
  });

  it('exits 2 for an unknown provider and lists the available ones', async () => {
    const run = await compact([sweAgentFixture, '--provider', 'nope']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('ollm: No context provider named "nope". Available: identity, offline, placeholder, rule-breaker.\n');
  });

  it("exits 3 with one line when the provider's model is unreachable, writing nothing", async () => {
    const out = join(folder.path, 'out.json');
    const run = await compact([sweAgentFixture, '--provider', 'offline', '--out', out]);
    expect(run.code).toBe(3);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^ollm: .*127\.0\.0\.1:11434.*ollama serve/);
    expect(existsSync(out)).toBe(false);
  });

  it('passes provider warnings to stderr, and info only with --debug', async () => {
    const chatty: ContextProviderV1 = {
      specificationVersion: 'v1',
      name: 'chatty',
      description: 'Logs (tests)',
      shouldCompress: () => false,
      async compress(messages, _config, context) {
        context.logger.warn('first line\nsecond line');
        context.logger.info('details');
        return buildCompactionResult({ input: messages, output: messages, tokens: context.tokens, startedAt: performance.now() });
      },
    };
    const registry = testRegistry();
    registry.register(chatty);
    const options = { cwd: folder.path, env, registry };
    const quiet = await runOllm(['--no-plugins', 'compact', sweAgentFixture, '--provider', 'chatty', '--json'], options);
    expect(quiet.stderr).toBe('ollm: chatty: warning: first line second line\n');
    const debug = await runOllm(['--no-plugins', '--debug', 'compact', sweAgentFixture, '--provider', 'chatty', '--json'], options);
    expect(debug.stderr).toBe('ollm: chatty: warning: first line second line\nollm: chatty: info: details\n');
  });

  it('stops on Ctrl-C (an aborted signal): exit 130, nothing written', async () => {
    const out = join(folder.path, 'out.json');
    writeFileSync(out, 'previous content');
    const interrupt = new AbortController();
    interrupt.abort();
    const run = await runOllm(['--no-plugins', 'compact', sweAgentFixture, '--provider', 'placeholder', '--out', out], {
      cwd: folder.path,
      env,
      registry: testRegistry(),
      signal: interrupt.signal,
    });
    expect(run.code).toBe(130);
    expect(run.stderr).toBe('ollm: interrupted; nothing was written\n');
    expect(readFileSync(out, 'utf8')).toBe('previous content');
  });

  it('hands --model to the provider as context.model (Ollama by default, OpenAI with --api openai)', async () => {
    const seen: string[] = [];
    const modelReader: ContextProviderV1 = {
      specificationVersion: 'v1',
      name: 'model-reader',
      description: 'Records the model it was given (tests)',
      shouldCompress: () => false,
      async compress(messages, _config, context) {
        seen.push(`${context.model?.provider}/${context.model?.modelId}`);
        return buildCompactionResult({ input: messages, output: messages, tokens: context.tokens, startedAt: performance.now() });
      },
    };
    const registry = testRegistry();
    registry.register(modelReader);
    const options = { cwd: folder.path, env, registry };
    const base = ['--no-plugins', 'compact', sweAgentFixture, '--provider', 'model-reader', '--json'];
    expect((await runOllm([...base, '--model', 'qwen2.5:7b', '--host', 'http://127.0.0.1:9'], options)).code).toBe(0);
    expect((await runOllm([...base, '--model', 'gpt-4o-mini', '--api', 'openai'], options)).code).toBe(0);
    expect((await runOllm(base, options)).code).toBe(0);
    expect(seen).toEqual(['ollama/qwen2.5:7b', 'openai/gpt-4o-mini', 'undefined/undefined']);
    const badApi = await runOllm([...base, '--model', 'x', '--api', 'grpc'], options);
    expect(badApi.code).toBe(2);
    expect(badApi.stderr).toBe('ollm: Unknown --api "grpc". APIs: ollama, openai.\n');
  });

  it.each(['0', '-5', '120%', 'half', '12.5'])('exits 2 for --limit %s', async (limit) => {
    const run = await compact([sweAgentFixture, '--provider', 'identity', '--limit', limit]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^ollm: Invalid --limit /);
  });

  it('runs a comma list as a pipeline', async () => {
    const run = await compact([sweAgentFixture, '--provider', 'identity,placeholder', '--json', '--limit', '100']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as ConversationReport & { provider: string };
    expect(report.provider).toBe('identity,placeholder');
    expect(report.tokensAfter).toBeLessThan(report.tokensBefore);
  });

  it('compacts every conversation of a tau-bench file: totals plus one report each', async () => {
    const out = join(folder.path, 'airline.json');
    const run = await compact([tauBenchFixture, '--provider', 'placeholder', '--json', '--out', out]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { tokensBefore: number; tokensAfter: number; removedCount: number; conversations: ConversationReport[] };
    const original = await readTranscript(tauBenchFixture);
    expect(report.conversations).toHaveLength(original.conversations.length);
    expect(report.tokensBefore).toBe(report.conversations.reduce((sum, entry) => sum + entry.tokensBefore, 0));
    expect(report.removedCount).toBe(report.conversations.reduce((sum, entry) => sum + entry.removed.length, 0));
    const readBack = await readTranscript(out);
    expect(readBack.format).toBe('tau-bench');
    expect(readBack.conversations.map((conversation) => conversation.id)).toEqual(original.conversations.map((conversation) => conversation.id));
    expect(readBack.conversations.reduce((sum, conversation) => sum + tokens.countMessages(conversation.messages), 0)).toBe(report.tokensAfter);
  });

  it('compacts only the conversation --conversation names and keeps the others', async () => {
    const original = await readTranscript(tauBenchFixture);
    const changed = original.conversations.findIndex((conversation) =>
      conversation.messages.some((message) => message.parts.some((part) => part.type === 'tool-result' && part.output.length > 200)),
    );
    const id = original.conversations[changed]!.id;
    const out = join(folder.path, 'airline.json');
    const run = await compact([tauBenchFixture, '--provider', 'placeholder', '--conversation', id, '--out', out]);
    expect(run.code).toBe(0);
    const readBack = await readTranscript(out);
    readBack.conversations.forEach((conversation, index) => {
      const same = computeSourceDigest(conversation.messages) === computeSourceDigest(original.conversations[index]!.messages);
      expect(same, conversation.id).toBe(index !== changed);
    });
  });
});

describe.skipIf(!fixturesPresent || !existsSync(new URL('../../../plugins/trim/src/index.ts', import.meta.url)))('ollm compact with trim', () => {
  it('halves a real SWE-agent transcript into a valid transcript of the same format', async () => {
    const folder = temporaryFolder();
    try {
      const { default: trim } = await import('@ollm/plugin-trim');
      const registry = testRegistry();
      registry.register(trim, '@ollm/plugin-trim');
      const out = join(folder.path, 'small.traj.json');
      const run = await runOllm(['--no-plugins', 'compact', sweAgentFixture, '--provider', 'trim', '--out', out, '--json'], {
        cwd: folder.path,
        env: { OLLM_HOME: join(folder.path, 'home') },
        registry,
      });
      expect(run.code).toBe(0);
      const report = JSON.parse(run.stdout) as ConversationReport & { provider: string };
      expect(report.provider).toBe('trim');
      const readBack = await readTranscript(out);
      expect(readBack.format).toBe('swe-agent');
      expect(tokens.countMessages(readBack.conversations[0]!.messages)).toBe(report.tokensAfter);
      expect(report.tokensAfter).toBeLessThan(report.tokensBefore);
      for (const piece of report.removed.filter((entry) => entry.path)) expect(existsSync(piece.path!)).toBe(true);
    } finally {
      folder.remove();
    }
  });
});
