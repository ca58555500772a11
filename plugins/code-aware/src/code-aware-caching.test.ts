import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compactWith, createProviderContext, InvalidArgumentError, type CompactionResult, type ContextProvider, type Message } from '@ollm/core';
import { readTranscript } from '@ollm/transcripts';
import { Parser } from 'web-tree-sitter';
import { CodeAwareCache } from './cache/code-aware-cache.js';
import { createCodeAwareProvider } from './index.js';
import { ConversationBuilder, pythonModule } from './test-support/conversation-builder.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const logdir = mkdtempSync(join(tmpdir(), 'ollm-code-aware-cache-'));
afterAll(() => rmSync(logdir, { recursive: true, force: true }));

const context = createProviderContext();
const uncached = createCodeAwareProvider({ cache: false, recentMessages: 2 });
const uncachedDefaults = createCodeAwareProvider({ cache: false });

let parse: { readonly mock: { readonly calls: readonly unknown[] }; mockRestore(): void };
beforeEach(() => {
  parse = vi.spyOn(Parser.prototype, 'parse');
});
afterEach(() => parse.mockRestore());

/** Tree-sitter parses during `run`. */
async function parsesDuring<T>(run: () => Promise<T>): Promise<{ result: T; parses: number }> {
  const before = parse.mock.calls.length;
  const result = await run();
  return { result, parses: parse.mock.calls.length - before };
}

/** The same conversation as a fresh parse of its JSON gives it: new objects, equal strings. */
function reparsed(messages: readonly Message[]): Message[] {
  return JSON.parse(JSON.stringify(messages)) as Message[];
}

/** What a compaction decided, without its timing. */
function decided(result: CompactionResult): unknown {
  return { messages: result.messages, removed: result.removed, limitations: result.limitations, tokensAfter: result.stats.tokensAfter };
}

function compact(provider: ContextProvider, messages: readonly Message[], limit?: number): Promise<CompactionResult> {
  return compactWith(provider, messages, { config: { logdir, ...(limit === undefined ? {} : { limit }) }, context });
}

/** Views of three Python files, a code block and a script, all old, and one view that is recent. */
function conversation(): Message[] {
  return new ConversationBuilder()
    .system('You are a coding agent.')
    .user('Fix it.')
    .shell('cat pkg/store.py', pythonModule('Store', 8))
    .shell('cat pkg/other.py', pythonModule('Other', 8))
    .assistant(`The helper:\n\n\`\`\`python\n${pythonModule('Helper', 5)}\n\`\`\`\n`)
    .shell(`cat > probe.py << 'EOF'\n${pythonModule('Probe', 6)}\nEOF\npython probe.py`, 'ok')
    .shell('cat pkg/third.py', pythonModule('Third', 8))
    .shell('python run.py', 'Traceback (most recent call last):\n  File "/repo/pkg/other.py", line 24, in method_2\nValueError: bad')
    .shell('cat pkg/fourth.py', pythonModule('Fourth', 8))
    .build();
}

/** One more turn: a view of a new file. */
function withOneMoreTurn(messages: readonly Message[]): Message[] {
  const turn = new ConversationBuilder().shell('cat pkg/fifth.py', pythonModule('Fifth', 8)).build();
  const calls = messages.length;
  return [
    ...messages,
    ...turn.map((message, index) => ({
      ...message,
      id: `m${calls + index}`,
      parts: message.parts.map((part) => ('callId' in part ? { ...part, callId: 'call_new' } : part)),
    })),
  ];
}

describe('code-aware caching across compactions', () => {
  it('parses nothing when the same content is compacted again, as the same objects or a fresh parse', async () => {
    const provider = createCodeAwareProvider({ cache: new CodeAwareCache(), recentMessages: 2 });
    const messages = conversation();
    const first = await parsesDuring(() => compact(provider, messages));
    expect(first.parses).toBeGreaterThanOrEqual(5);
    const again = await parsesDuring(() => compact(provider, messages));
    const fresh = await parsesDuring(() => compact(provider, reparsed(messages)));
    expect(again.parses).toBe(0);
    expect(fresh.parses).toBe(0);
    expect(decided(again.result)).toEqual(decided(first.result));
    expect(decided(fresh.result)).toEqual(decided(first.result));
    expect(decided(first.result)).toEqual(decided(await compact(uncached, messages)));
    // Compacted again, the folded messages are the very objects made the first time (what is remembered by object holds).
    expect(first.result.messages.filter((message, index) => message !== messages[index]).length).toBeGreaterThanOrEqual(5);
    again.result.messages.forEach((message, index) => expect(message).toBe(first.result.messages[index]));
  });

  it('after one more turn parses only the view that turn made old', async () => {
    const provider = createCodeAwareProvider({ cache: new CodeAwareCache(), recentMessages: 2 });
    const messages = conversation();
    await compact(provider, messages);
    const longer = withOneMoreTurn(messages);
    // The view of pkg/fourth.py leaves the recent messages; pkg/fifth.py is recent.
    const next = await parsesDuring(() => compact(provider, reparsed(longer)));
    expect(next.parses).toBe(1);
    expect(decided(next.result)).toEqual(decided(await compact(uncached, longer)));
  });

  it('a cache of a few entries stays within its bounds and changes nothing', async () => {
    const cache = new CodeAwareCache({ maxEntries: 4, maxBytes: 20_000 });
    const provider = createCodeAwareProvider({ cache, recentMessages: 2 });
    const messages = conversation();
    const expected = decided(await compact(uncached, messages));
    for (let run = 0; run < 3; run++) {
      const { result, parses } = await parsesDuring(() => compact(provider, reparsed(messages)));
      expect(decided(result)).toEqual(expected);
      // Too small to hold every plan: some are parsed again each time.
      expect(parses).toBeGreaterThan(0);
      expect(cache.stats().entries).toBeLessThanOrEqual(4);
      expect(cache.stats().bytes).toBeLessThanOrEqual(20_000);
    }
  });

  it('rejects a cache option that is not a CodeAwareCache or false', () => {
    expect(() => createCodeAwareProvider({ cache: {} as CodeAwareCache })).toThrow(InvalidArgumentError);
  });
});

const fixtures = join(root, 'fixtures', 'swe-agent-django');
const trajectories = existsSync(fixtures)
  ? readdirSync(fixtures)
      .filter((name) => name.endsWith('.traj.json'))
      .sort()
  : [];

describe.runIf(trajectories.length > 0)('real transcripts: the same output with and without the cache', () => {
  for (const name of trajectories) {
    it(name, async () => {
      const messages = (await readTranscript(join(fixtures, name))).conversations[0]!.messages;
      const limit = Math.floor(context.tokens.countMessages(messages) / 2);
      // The same conversation with one more message near the start: every index moves by one.
      const shifted = [
        ...messages.slice(0, 2),
        { id: 'inserted', role: 'assistant', parts: [{ type: 'text', text: 'Let me look around.' }] } as Message,
        ...messages.slice(2),
      ];
      const expected = decided(await compact(uncachedDefaults, messages, limit));
      const expectedShifted = decided(await compact(uncachedDefaults, shifted, limit));
      const provider = createCodeAwareProvider({ cache: new CodeAwareCache() });
      // Two turns fewer first, as a live agent compacts before its last turn.
      await compact(provider, messages.slice(0, -2), limit);
      expect(decided(await compact(provider, messages, limit))).toEqual(expected);
      const warm = await parsesDuring(() => compact(provider, reparsed(messages), limit));
      expect(warm.parses).toBe(0);
      expect(decided(warm.result)).toEqual(expected);
      expect(decided(await compact(provider, shifted, limit))).toEqual(expectedShifted);
    });
  }
});
