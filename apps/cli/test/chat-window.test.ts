import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenCounter, createTokenizer, messageText, type Message } from '@ollm/core';
import { readSession } from '@ollm/runtime';
import { chatRequests, startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { ChatDriver, binaryBuilt, runBinary } from './chat-driver.js';
import { temporaryFolder } from './run-ollm.js';

const counter = new TokenCounter(createTokenizer('o200k_base'));
const words = (count: number) => Array.from({ length: count }, (_, index) => `word${index % 40}`).join(' ');

/** The chat as a new user meets it: the window rule, input, the session lock, /compact names, reliability. */
describe.skipIf(!binaryBuilt)('ollm chat keeps every request inside the window (built binary, piped stdin)', () => {
  let server: FakeModelServer;
  let folder: ReturnType<typeof temporaryFolder>;
  let env: Record<string, string>;
  beforeAll(async () => {
    server = await startFakeModelServer();
    folder = temporaryFolder();
    env = { OLLM_HOME: join(folder.path, 'home'), HOME: folder.path };
  });
  afterAll(async () => {
    await server.close();
    folder.remove();
  });
  const args = (...extra: string[]) => ['--host', server.url, '--model', 'fake-llama:8b', '--context-size', '2048', ...extra];

  it('releases the session lock on SIGTERM (exit 143), so the next chat takes the session without a stale lock', async () => {
    await server.reset();
    const chat = new ChatDriver(args('--session', 'terminated'), env, folder.path);
    chat.send('hello before the kill');
    await chat.waitFor(/Context: /);
    const lock = join(env['OLLM_HOME']!, 'sessions', 'terminated', 'session.lock');
    expect(existsSync(lock)).toBe(true);
    const ended = await chat.terminate();
    expect(ended.code).toBe(143);
    expect(ended.stderr).toContain('ollm: terminated; session terminated saved under');
    expect(existsSync(lock)).toBe(false);
    const next = await runBinary(args('--session', 'terminated'), env, folder.path, 'after the kill\n');
    expect(next.code).toBe(0);
    expect(next.stderr).not.toContain('took over');
  });

  it('resumes from the session record when the saved context is damaged, moving it aside', async () => {
    await server.reset();
    expect((await runBinary(args('--session', 'damaged-context'), env, folder.path, 'first question\n')).code).toBe(0);
    const contextFile = join(env['OLLM_HOME']!, 'sessions', 'damaged-context', 'context.json');
    writeFileSync(contextFile, '{"version": 1, "context": {"messa');
    const run = await runBinary(args('--session', 'damaged-context'), env, folder.path, 'second question\n');
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /warning: the saved context .*context\.json is damaged \(not valid JSON .*\): moved aside to .*context\.json\.damaged-\d{8}T\d+Z; resuming from the session record/,
    );
    expect(run.stdout).toContain('Resumed: 2 messages from the session record.');
    expect(readdirSync(join(env['OLLM_HOME']!, 'sessions', 'damaged-context')).some((name) => name.startsWith('context.json.damaged-'))).toBe(true);
  });

  it('refuses a paste that alone cannot fit, sends nothing over window - reserve, and goes on', async () => {
    await server.reset();
    const input = ['a short question', words(2_500), 'and after the refusal?'].join('\n');
    const run = await runBinary(args('--session', 'too-large'), env, folder.path, `${input}\n`);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^ollm: The request needs [\d,]+ tokens but the window holds 1,741 \(2,048 less 307 kept for the reply\): the latest message alone is [\d,]+ tokens; shorten or split it, or use a larger --context-size\. Nothing was sent\.$/m,
    );
    expect(run.stdout).toContain('(the message was not sent; the session record keeps it)');
    expect(run.stdout).toContain('fake reply to: and after the refusal?');
    const chats = chatRequests(server);
    expect(chats.length).toBeGreaterThanOrEqual(2);
    for (const request of chats) {
      expect(request.promptTokens).toBeLessThanOrEqual(1_741);
      expect(request.maxTokens).toBe(307);
    }
    // Nothing is lost: the session record keeps the refused paste.
    const recorded = readSession(env['OLLM_HOME']!, 'too-large')
      .messages.filter((message: Message) => message.role === 'user')
      .map(messageText);
    expect(recorded).toEqual(['a short question', words(2_500), 'and after the refusal?']);
  });

  it('joins lines ending with a backslash into one message, indentation kept', async () => {
    await server.reset();
    const run = await runBinary(args('--session', 'multi-line'), env, folder.path, 'def f(x):\\\n    return x + 1\\\n\nsecond message\n');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('> def f(x):\n.     return x + 1\nfake reply to: def f(x):');
    const recorded = readSession(env['OLLM_HOME']!, 'multi-line')
      .messages.filter((message: Message) => message.role === 'user')
      .map(messageText);
    expect(recorded).toEqual(['def f(x):\n    return x + 1', 'second message']);
    expect(chatRequests(server)).toHaveLength(2);
  });

  it('compresses a nearly full context before a paste that fits alone, and sends the paste whole', async () => {
    await server.reset();
    // Fill to ~90%, then a paste that fits alone but not with the rest: compressed first, then sent whole.
    const lines = Array.from({ length: 8 }, (_, index) => `question ${index}: ${words(170)}`);
    const paste = `paste: ${words(420)}`;
    const run = await runBinary(args('--session', 'fill-then-paste', '--provider', 'trim'), env, folder.path, `${[...lines, paste].join('\n')}\n`);
    expect(run.code).toBe(0);
    const chats = chatRequests(server);
    for (const request of chats) expect(request.promptTokens).toBeLessThanOrEqual(1_741);
    const last = chats.at(-1)!;
    expect(messageText(last.messages.at(-1)!)).toBe(paste);
    expect(counter.countText(paste)).toBeGreaterThan(800);
    expect(run.stdout).toMatch(/^compacted with [\w,-]+ \(automatic\): /m);
  });

  it('refuses a second chat on a live session, naming it and the pid; --force takes it over', async () => {
    const first = new ChatDriver(args('--session', 'shared'), env, folder.path);
    await first.waitFor(/Type \/help/);
    const second = await runBinary(args('--session', 'shared'), env, folder.path, 'hello\n');
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/^ollm: Session shared is open in another ollm \(pid \d+\); end that chat first, or pass --force if it is not running\.\n$/);
    const forced = await runBinary(args('--session', 'shared', '--force'), env, folder.path, '/quit\n');
    expect(forced.code).toBe(0);
    expect(forced.stderr).toMatch(/took over session shared from a running ollm \(pid \d+\)/);
    first.send('/quit');
    expect((await first.end()).code).toBe(0);
    // A lock left by an ended chat does not block the next one.
    expect((await runBinary(args('--session', 'shared'), env, folder.path, '/quit\n')).code).toBe(0);
  });

  it("runs gptme's /compact auto and /compact resume as deprecated aliases, and says when a compaction saves little", async () => {
    const input = ['first question', 'second question', '/compact auto', '/compact resume'].join('\n');
    const run = await runBinary(args('--session', 'aliases'), env, folder.path, `${input}\n`);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('ollm: /compact auto is deprecated: it runs /compact trim; type that instead');
    expect(run.stderr).toContain('ollm: /compact resume is deprecated: it runs /compact summarize; type that instead');
    expect(run.stdout).toMatch(
      /^nothing to compact with trim: the context stays at [\d,]+ tokens; \/compact summarize restarts it from a summary the model writes\.$/m,
    );
    expect(run.stdout).not.toContain('removed: nothing (content was shortened');
  });

  it('takes the window an OpenAI-compatible server runs from /props (llama.cpp) when no --context-size is given', async () => {
    const llama = await startFakeModelServer({
      models: [{ name: 'qwen.gguf', contextLength: 32_768, loadedContextLength: 2_048 }],
      openAIContextShape: 'llama-cpp',
    });
    try {
      const run = await runBinary(
        ['--base-url', `${llama.url}/v1`, '--model', 'qwen.gguf', '--session', 'llama-props'],
        env,
        folder.path,
        `${words(300)}\nsecond\n`,
      );
      expect(run.code).toBe(0);
      const chats = chatRequests(llama);
      expect(chats).toHaveLength(2);
      // 2,048 (its n_ctx), not n_ctx_train or the 16,384 fallback: 15% of it kept for the reply.
      for (const request of chats) {
        expect(request.maxTokens).toBe(307);
        expect(request.promptTokens).toBeLessThanOrEqual(1_741);
      }
      expect(run.stdout).toMatch(/^Context: [\d,]+\/1,741 /m);
    } finally {
      await llama.close();
    }
  });

  it('learns the window from the first refusal of a server that says nothing else, and is never refused again', async () => {
    // No window in /v1/models, no /props: only its 400 says it runs 2,048 tokens.
    const strict = await startFakeModelServer({ models: [{ name: 'local.gguf', contextLength: 2_048 }], enforceWindow: true });
    try {
      const lines = Array.from({ length: 30 }, (_, index) => `question ${index}: ${words(120)}`);
      const run = await runBinary(
        ['--base-url', `${strict.url}/v1`, '--model', 'local.gguf', '--session', 'learn-window'],
        env,
        folder.path,
        `${lines.join('\n')}\n`,
      );
      expect(run.code).toBe(0);
      const chats = chatRequests(strict);
      const refused = chats.filter((request) => request.responseBody === undefined);
      expect(refused).toHaveLength(1);
      expect(chats.indexOf(refused[0]!)).toBe(0);
      const answered = chats.filter((request) => request.responseBody !== undefined);
      expect(answered).toHaveLength(30);
      for (const request of answered) expect(request.promptTokens + request.maxTokens!).toBeLessThanOrEqual(2_048);
      expect(run.stderr).toContain('requests are held to the 2048 tokens it runs, not 16384');
      expect(run.stdout).toMatch(/^Context: [\d,]+\/1,741 /m);
    } finally {
      await strict.close();
    }
  });

  it('calls a model of unknown size "unknown", not critical, and warns at the start for a small one', async () => {
    const unknown = await runBinary(['--host', server.url, '--model', 'my-model', '--context-size', '2048'], env, folder.path, 'hi\n');
    // The fake server reports the parameter size of its first model for any name: use the OpenAI API, which reports none.
    const openai = await runBinary(
      ['--api', 'openai', '--base-url', `${server.url}/v1`, '--model', 'my-model', '--context-size', '2048'],
      env,
      folder.path,
      'hi\n',
    );
    expect(openai.stdout).toMatch(/^Context: .* · reliability unknown · /m);
    expect(openai.stdout).toContain('reliability unknown: the size of my-model is not in its name and the server did not report it');
    expect(openai.stdout).not.toContain('Context Compression Warning');
    expect(unknown.stdout).toMatch(/^Context: .* · reliability low · /m);
    expect(unknown.stdout).toContain('Your model (my-model) starts at reliability low, before any compaction.');
  });
});
