import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageText, type Message } from '@ollm/core';
import { readSession } from '@ollm/runtime';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { ChatDriver, binaryBuilt, binaryPath, runBinary } from './chat-driver.js';
import { temporaryFolder } from './run-ollm.js';

if (!binaryBuilt) console.warn(`Skipping the chat tests: ${binaryPath} is missing. Run \`pnpm turbo run build --filter @ollm/cli...\`.`);

/** A long, deterministic reply, so a few turns fill a 2,048-token window and compression has assistant text to work on. */
function chatReply(question: string): string {
  return [
    `About "${question.slice(0, 40)}": I edited src/parser.ts and decided to keep the retry layer.`,
    'The failing test in tests/parser.test.ts came from a stale fixture, which I regenerated.',
    ...Array.from({ length: 6 }, (_, index) => `Detail ${index + 1}: the tokenizer, the retry loop and the logging setup were reviewed again.`),
  ].join(' ');
}

const statusLine = /^Context: [\d,]+\/1,741 \(\d+%\) · reliability (high|medium|low|critical) · \d+ compactions? · provider goal-aware$/;

describe.skipIf(!binaryBuilt)('ollm chat (the built binary, piped stdin, fake model server)', () => {
  let server: FakeModelServer;
  let folder: ReturnType<typeof temporaryFolder>;
  let env: Record<string, string>;
  beforeAll(async () => {
    server = await startFakeModelServer({
      // Summariser requests (delimited conversation, RESUME) get the server's own deterministic replies.
      reply: (request) => {
        const last = request.messages.at(-1);
        const text = last ? messageText(last) : '';
        return text.includes('<conversation>') || text.includes('RESUME') ? undefined : chatReply(text);
      },
    });
    folder = temporaryFolder();
    env = { OLLM_HOME: join(folder.path, 'home'), HOME: folder.path };
  });
  afterAll(async () => {
    await server.close();
    folder.remove();
  });

  const chatArgs = () => ['--provider', 'goal-aware', '--host', server.url, '--model', 'fake-llama:8b', '--context-size', '2048'];

  it('runs a scripted session: automatic and manual compression, snapshots, status, export, all on disk', async () => {
    const chat = new ChatDriver(chatArgs(), env, folder.path);
    const questions = Array.from({ length: 12 }, (_, index) => `Question ${index + 1}: how should the parser handle retries?`);
    chat.send(
      '/goal ship the parser with retries',
      ...questions,
      '/compact trim',
      '/compact summarize',
      'One more question after the restart',
      '/snapshot create',
      '/snapshot list',
    );
    const [, snapshotId] = await chat.waitFor(/snapshot created: (\S+)/);
    await chat.waitFor(/^snapshot\s+taken/m);
    chat.send(`/snapshot restore ${snapshotId}`, '/status', '/export', '/quit');
    const run = await chat.end();
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const sessionId = /session (\S+) ·/.exec(run.stdout)![1]!;
    const lines = run.stdout.split('\n');

    expect(lines.filter((line) => line.startsWith('Context: ')).every((line) => statusLine.test(line))).toBe(true);
    expect(lines.filter((line) => statusLine.test(line)).length).toBeGreaterThanOrEqual(questions.length + 1);
    expect(run.stdout).toMatch(/^compacted with [\w,-]+ \(automatic\): [\d,]+ -> [\d,]+ tokens$/m);
    // After goal-aware has summarised the old turns, trim finds nothing it may touch (checkpoints are
    // only goal-aware's to age) and says so once, pointing to summarize.
    expect(run.stdout).toMatch(
      /^nothing to compact with trim: the context stays at [\d,]+ tokens; \/compact summarize restarts it from a summary the model writes\.$/m,
    );
    expect(run.stdout).toMatch(/^compacted with summarize: [\d,]+ -> [\d,]+ tokens$/m);
    expect(run.stdout).toMatch(/^removed: \d+ /m);
    // fake-llama:8b starts at low (a warning at the start); only model summaries cost reliability, and
    // the one /compact summarize wrote keeps it at low: no second warning.
    expect(run.stdout.match(/Context Compression Warning/g)).toHaveLength(1);
    expect(lines.filter((line) => line.startsWith('Context: ')).at(-1)).toMatch(/ · reliability low · /);
    expect(run.stdout).toContain('Your model (fake-llama:8b) starts at reliability low, before any compaction.');
    expect(run.stdout).toContain(`restored snapshot ${snapshotId}`);
    for (const part of ['system', 'goal', 'checkpoints', 'user', 'assistant', 'tool', 'total'])
      expect(run.stdout).toMatch(new RegExp(`^  ${part}\\s+[\\d,]+\\s+[\\d.]+%$`, 'm'));

    // The session file holds every turn, uncompressed, in order.
    const record = readSession(env['OLLM_HOME']!, sessionId);
    const userTexts = record.messages.filter((message: Message) => message.role === 'user').map(messageText);
    expect(userTexts).toEqual([...questions, 'One more question after the restart']);
    const replies = record.messages.filter((message: Message) => message.role === 'assistant').map(messageText);
    expect(replies).toEqual(userTexts.map((text) => chatReply(text)));
    // At least one automatic compaction and the manual summarize (the snapshot restored keeps its own count).
    expect(record.metadata.compactionCount).toBeGreaterThanOrEqual(2);

    // The export has ollm's JSON session layout.
    const exported = JSON.parse(readFileSync(join(env['OLLM_HOME']!, 'sessions', `${sessionId}.json`), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(exported)).toEqual(['sessionId', 'startTime', 'lastActivity', 'model', 'provider', 'messages', 'toolCalls', 'goals', 'metadata']);
    // The goal set with /goal, in its last recorded state.
    expect(exported['goals']).toEqual([expect.objectContaining({ description: 'ship the parser with retries', status: 'active', priority: 'medium' })]);
    expect(exported).toMatchObject({ sessionId, model: 'fake-llama:8b', provider: 'goal-aware', toolCalls: [] });
    const messages = exported['messages'] as { role: string; parts: { type: string; text: string }[]; timestamp: string }[];
    expect(messages).toHaveLength(record.messages.length);
    expect(messages[0]).toEqual({ id: record.messages[0]!.id, role: 'user', parts: [{ type: 'text', text: questions[0] }], timestamp: expect.any(String) });
    expect(exported['metadata']).toEqual({
      tokenCount: expect.any(Number),
      compactionCount: record.metadata.compactionCount,
      compressionCount: record.metadata.compactionCount,
    });

    // Non-interactive commands see the session.
    const listed = await runBinary(['sessions', 'list', '--json'], env, folder.path);
    expect(listed.code).toBe(0);
    const sessions = (JSON.parse(listed.stdout) as { sessions: { sessionId: string; messageCount: number }[] }).sessions;
    expect(sessions).toContainEqual(expect.objectContaining({ sessionId, messageCount: record.messages.length }));
    const snapshots = await runBinary(['snapshot', 'list', '--session', sessionId, '--json'], env, folder.path);
    const snapshotIds = (JSON.parse(snapshots.stdout) as { snapshots: { id: string }[] }).snapshots.map((snapshot) => snapshot.id);
    expect(snapshotIds).toContain(snapshotId);

    // A snapshot restored from the command line is where the next chat of that session starts.
    const oldest = snapshotIds.at(-1)!;
    expect((await runBinary(['snapshot', 'restore', oldest], env, folder.path)).code).toBe(0);
    const resumed = await runBinary([...chatArgs(), '--session', sessionId], env, folder.path, '/quit\n');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(new RegExp(`^Resumed: [\\d,]+ messages from snapshot ${oldest}\\.$`, 'm'));
  });

  it('cancels a streaming reply on Ctrl-C and keeps the session going', async () => {
    const chat = new ChatDriver(chatArgs(), env, folder.path);
    await chat.waitFor(/Type \/help/);
    server.setFault({ kind: 'hang', paths: ['/api/chat'] });
    const chatRequests = () => server.requests.filter((request) => request.path === '/api/chat').length;
    const before = chatRequests();
    chat.send('This reply will hang');
    await expect.poll(chatRequests, { timeout: 20_000 }).toBeGreaterThan(before);
    chat.interrupt();
    await chat.waitFor(/\(reply cancelled\)/);
    chat.send('And this one works', '/providers', '/sessions', '/history', '/help', '/quit');
    const run = await chat.end();
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(chatReply('And this one works'));
    const sessionId = /session (\S+) ·/.exec(run.stdout)![1]!;
    expect(run.stdout).toMatch(/^goal-aware\s+auto, --provider\s+@ollm\/plugin-goal-aware\s/m);
    expect(run.stdout).toMatch(/^fold\s+auto\s+@ollm\/plugin-fold\s/m);
    expect(run.stdout).toMatch(/^trim\s+@ollm\/plugin-trim\s/m);
    expect(run.stdout).toMatch(new RegExp(`^\\* ${sessionId}\\s`, 'm'));
    expect(run.stdout).toMatch(/^#1 \(.+\)\nuser: This reply will hang$/m);
    expect(run.stdout).toMatch(/^3 messages recorded in /m);
    expect(run.stdout).toMatch(/^\s+\/snapshot create \[REASON\]\|list\|restore ID\|keep ID\|unkeep ID\|delete ID\s+/m);
    const userTexts = readSession(env['OLLM_HOME']!, sessionId)
      .messages.filter((message: Message) => message.role === 'user')
      .map(messageText);
    expect(userTexts).toEqual(['This reply will hang', 'And this one works']);
  });

  it('keeps the partial reply when Ctrl-C cancels it mid-stream', async () => {
    // A minimal Ollama that streams one chunk and then stalls, so the reply is cut half-way.
    const stalled = new Set<ServerResponse>();
    const ollama = createServer((request, response) => {
      if (request.url === '/api/show') {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ model_info: { 'general.architecture': 'llama', 'llama.context_length': 8192 }, details: { parameter_size: '8.0B' } }));
        return;
      }
      response.setHeader('content-type', 'application/x-ndjson');
      response.write(
        `${JSON.stringify({ model: 'm', created_at: new Date().toISOString(), message: { role: 'assistant', content: 'The first half of ' }, done: false })}\n`,
      );
      stalled.add(response);
    });
    await new Promise<void>((resolve) => ollama.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(ollama.address() as AddressInfo).port}`;
    try {
      const chat = new ChatDriver(['--host', url, '--model', 'fake-llama:8b', '--context-size', '2048'], env, folder.path);
      chat.send('Tell me a long story');
      await chat.waitFor(/The first half of /);
      chat.interrupt();
      await chat.waitFor(/\(reply cancelled; the partial reply is kept\)/);
      chat.send('/compcat', '/quit');
      const run = await chat.end();
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('ollm: unknown command /compcat (did you mean /compact?); /help lists the commands\n');
      const sessionId = /session (\S+) ·/.exec(run.stdout)![1]!;
      const recorded = readSession(env['OLLM_HOME']!, sessionId).messages;
      expect(recorded.map((message: Message) => [message.role, messageText(message), message.metadata?.['interrupted']])).toEqual([
        ['user', 'Tell me a long story', undefined],
        ['assistant', 'The first half of ', true],
      ]);
    } finally {
      for (const response of stalled) response.destroy();
      await new Promise((resolve) => ollama.close(resolve));
    }
  });

  it('reports failed model compactions, falls back, opens the circuit, and loses no message', async () => {
    // Chat replies work; every summariser request fails (the server answers 500).
    const failing = await startFakeModelServer({
      reply: (request) => {
        const text = messageText(request.messages.at(-1)!);
        if (text.includes('<conversation>') || text.includes('RESUME')) throw new Error('summariser down');
        return chatReply(text);
      },
    });
    try {
      const questions = Array.from({ length: 9 }, (_, index) => `question ${index + 1}`);
      // The rule stages of before fold: they cannot reach the target of a chat without tool output, so the model stage runs.
      writeFileSync(join(folder.path, '.ollmrc.json'), JSON.stringify({ compaction: { autoPipeline: 'mask,code-aware,trim,goal-aware' } }));
      const run = await runBinary(['--host', failing.url, '--model', 'fake-llama:8b', '--context-size', '1024'], env, folder.path, `${questions.join('\n')}\n`);
      expect(run.code).toBe(0);
      const warnings = run.stderr.trimEnd().split('\n');
      expect(
        warnings.filter((line) => /^ollm: compaction with goal-aware failed: .*500.* \(the context is unchanged\)$/.test(line)).length,
      ).toBeGreaterThanOrEqual(3);
      expect(warnings).toContain('ollm: goal-aware failed 3 times in a row: automatic compaction uses mask,code-aware,trim only for now');
      expect(run.stdout).toMatch(/^compacted with window-guard \(automatic\): [\d,]+ -> [\d,]+ tokens$/m);
      for (const line of run.stdout.split('\n').filter((entry) => entry.startsWith('Context: ')))
        expect(Number(/^Context: ([\d,]+)\//.exec(line)![1]!.replace(/,/g, ''))).toBeLessThanOrEqual(1024);
      const sessionId = /session (\S+) ·/.exec(run.stdout)![1]!;
      expect(
        readSession(env['OLLM_HOME']!, sessionId)
          .messages.filter((message: Message) => message.role === 'user')
          .map(messageText),
      ).toEqual(questions);
    } finally {
      await failing.close();
    }
  });

  it('exits 3 with exactly one line when no model server answers', async () => {
    const run = await runBinary(['--provider', 'goal-aware', '--host', 'http://127.0.0.1:9'], env, folder.path);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')).toEqual([
      expect.stringMatching(/^ollm: No Ollama server at http:\/\/127\.0\.0\.1:9 .*ollama serve.*--api openai --base-url/),
      '',
    ]);
  });

  it('chats with an OpenAI-compatible server and writes no API key to disk', async () => {
    const key = 'sk-test-never-on-disk-0123456789';
    const home = join(folder.path, 'openai-home');
    const run = await runBinary(
      ['--api', 'openai', '--base-url', `${server.url}/v1`, '--model', 'fake-llama:8b', '--context-size', '2048'],
      { ...env, OLLM_HOME: home, OPENAI_API_KEY: key },
      folder.path,
      'Hello over the OpenAI API\n',
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`at ${server.url}/v1 · window 2,048 tokens`);
    expect(run.stdout).toContain(chatReply('Hello over the OpenAI API'));
    // Requests hold at most the window less the 15% reply reserve.
    expect(run.stdout).toMatch(/^Context: [\d,]+\/1,741 /m);
    const sessionId = /session (\S+) ·/.exec(run.stdout)![1]!;
    for (const file of ['history.jsonl', 'context.json']) expect(readFileSync(join(home, 'sessions', sessionId, file), 'utf8')).not.toContain(key);
  });

  it('never prints the API key in ollm config', async () => {
    const key = 'sk-test-do-not-print-0123456789';
    const run = await runBinary(['config', '--json'], { ...env, OPENAI_API_KEY: key }, folder.path);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(key);
    const parsed = JSON.parse(run.stdout) as { config: { apiKey: string; home: string }; sources: Record<string, string> };
    expect(parsed.config.apiKey).toBe('(set)');
    expect(parsed.sources['apiKey']).toBe('env:OPENAI_API_KEY');
    expect(parsed.sources['home']).toBe('env:OLLM_HOME');
  });

  it('compact with an unknown provider exits 2 and lists the available ones', async () => {
    const transcript = join(folder.path, 'small.json');
    writeFileSync(
      transcript,
      JSON.stringify([
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: 'hi' },
      ]),
    );
    const run = await runBinary(['compact', transcript, '--provider', 'nope'], env, folder.path);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^ollm: No context provider named "nope"\. Available: .*\btrim\b.*\n$/);
    expect(run.stderr).toContain('goal-aware');
  });
});
