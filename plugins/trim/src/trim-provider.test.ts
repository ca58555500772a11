import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProviderContext, findIntegrityViolations, messageText, resolveCompressionConfig, type Message, runProvider } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import trim, { additionalPassThresholds, additionalPassToolCallThreshold, createTrimProvider, resolveTrimOptions } from './index.js';
import { ConversationBuilder, numberedLines } from './test-support/conversation-builder.js';

const context = createProviderContext();
const longProse = Array.from({ length: 30 }, (_, index) => `Okay, now I am going to think out loud a little more about step ${index} here.`).join(' ');

function agentConversation(): Message[] {
  return new ConversationBuilder()
    .system('You are a coding agent.')
    .user('Fix the DurationField help text.')
    .assistant(`The issue is in django/db/models/fields/__init__.py. ${longProse}`, 'old reasoning '.repeat(50))
    .toolRound('cat django/db/models/fields/__init__.py', numberedLines(600))
    .toolRound('grep -rn DurationField tests/', numberedLines(90, 'match'))
    .toolRound('python -m pytest', numberedLines(40, 'test'))
    .assistant('Done.', 'recent reasoning')
    .build();
}

describe('trim provider', () => {
  it('is a v2 provider named trim that calls no model, and the default export is an instance', () => {
    expect(trim.specificationVersion).toBe('v2');
    expect(trim.name).toBe('trim');
    expect(trim.usesModel).toBe(false);
  });

  it('runs the three phases without a limit and keeps the result valid', async () => {
    const messages = agentConversation();
    const logdir = mkdtempSync(join(tmpdir(), 'trim-provider-'));
    const config = resolveCompressionConfig({ logdir, maxToolResultTokens: 1000 });
    const result = await runProvider(trim, messages, config, context);
    expect(findIntegrityViolations(messages, result, context.tokens)).toEqual([]);
    const kinds = result.removed.map((entry) => `${entry.messageId}:${entry.kind}`);
    expect(kinds).toEqual(['m2:reasoning', 'm4:tool-result', 'm2:assistant-text']);
    const compressed = messageText(result.messages[2]!);
    expect(compressed).toContain('The issue is in django/db/models/fields/__init__.py.');
    expect(compressed).not.toContain('step 7');
    expect(compressed).toContain(`ollm recover ${result.removed[2]!.sha256.slice(0, 12)}`);
    expect(compressed).toContain(result.removed[2]!.path!);
    expect(result.messages.at(-1)).toBe(messages.at(-1));
    expect(result.stats.tokensAfter).toBeLessThan(result.stats.tokensBefore);
    expect(result.limitations).toEqual([]);
  });

  it('adds passes with a halved tool threshold when still over the limit', async () => {
    const messages = agentConversation();
    const total = context.tokens.countMessages(messages);
    const result = await runProvider(trim, messages, resolveCompressionConfig({ limit: Math.floor(total * 0.05) }), context);
    expect(findIntegrityViolations(messages, result, context.tokens)).toEqual([]);
    // Phase 2 takes the 6,000-token output; the 900- and 400-token ones go in the 500 and 250 passes.
    expect(result.removed.map((entry) => `${entry.messageId}:${entry.kind}`)).toEqual([
      'm2:reasoning',
      'm4:tool-result',
      'm2:assistant-text',
      'm6:tool-result',
      'm8:tool-result',
    ]);
    expect(result.limitations.join('\n')).toContain('still over the limit');
    expect(additionalPassThresholds(resolveTrimOptions({}, resolveCompressionConfig()))).toEqual([1000, 500, 250, 125, 100]);
  });

  it('folds old tool-call inputs only to reach a limit, lowering their threshold in the extra passes', async () => {
    const script = (file: string, lines: number) => `cat > /testbed/${file} << 'EOF'\n${numberedLines(lines, file)}\nEOF`;
    const messages = new ConversationBuilder()
      .system('You are a coding agent.')
      .user('Fix it.')
      .toolRound(script('reproduce.py', 80), 'OK')
      .toolRound(script('check.py', 25), 'OK')
      .toolRound('ls', 'a.py')
      .toolRound('ls', 'a.py')
      .assistant('Done.')
      .build();
    const folds = (result: { removed: readonly { messageId: string; kind: string }[] }) =>
      result.removed.filter((entry) => entry.kind === 'tool-call-input').map((entry) => entry.messageId);
    expect(folds(await runProvider(trim, messages, resolveCompressionConfig(), context))).toEqual([]);
    const limited = await runProvider(trim, messages, resolveCompressionConfig({ limit: 10 }), context);
    expect(findIntegrityViolations(messages, limited, context.tokens)).toEqual([]);
    // reproduce.py (about 700 tokens) in phase 3; check.py (about 250) in the first extra pass, at 200.
    expect(folds(limited)).toEqual(['m2', 'm4']);
    expect(limited.limitations.join('\n')).toContain('tool calls of 100 tokens or fewer, reasoning, assistant text and tool calls in the last 5 messages');
    const config = resolveCompressionConfig({ limit: 10, extraConfig: { trim: { maxToolCallTokens: 100_000 } } });
    expect(folds(await runProvider(trim, messages, config, context))).toEqual([]);
    const resolved = resolveTrimOptions({}, resolveCompressionConfig());
    expect([0, 1, 2, 3, 4].map((pass) => additionalPassToolCallThreshold(resolved, pass))).toEqual([200, 100, 100, 100, 100]);
  });

  it('explains a limit it cannot reach, the missing logdir and the low saving', async () => {
    const messages = new ConversationBuilder().system('x '.repeat(1500)).user('y '.repeat(1500)).toolRound('ls', numberedLines(20)).build();
    const result = await runProvider(trim, messages, resolveCompressionConfig({ limit: 10 }), context);
    expect(findIntegrityViolations(messages, result, context.tokens)).toEqual([]);
    const text = result.limitations.join('\n');
    expect(text).toContain('still over the limit');
    expect(text).toContain('not recoverable');
    expect(text).toMatch(/under 10%.*summarize/);
  });

  it('reads options from extraConfig over the factory options', async () => {
    const messages = agentConversation();
    const provider = createTrimProvider({ maxToolResultTokens: 100000, previewLines: 1 });
    const quiet = await runProvider(provider, messages, resolveCompressionConfig(), context);
    expect(quiet.removed.some((entry) => entry.kind === 'tool-result')).toBe(false);
    const config = resolveCompressionConfig({ extraConfig: { trim: { maxToolResultTokens: 1000 } } });
    const loud = await runProvider(provider, messages, config, context);
    const placeholder = loud.messages[4]!.parts[0]!;
    expect(placeholder.type === 'tool-result' && placeholder.output).toContain('line 600:');
    expect(placeholder.type === 'tool-result' && placeholder.output).not.toContain('line 599:');
  });

  it('finds nothing more to do on its own output', async () => {
    const messages = agentConversation();
    const config = resolveCompressionConfig({ maxToolResultTokens: 1000 });
    const first = await runProvider(trim, messages, config, context);
    const second = await runProvider(trim, first.messages, config, context);
    expect(second.removed).toEqual([]);
    expect(second.messages).toEqual(first.messages);
  });

  it('reads flat extraConfig keys too', async () => {
    const config = resolveCompressionConfig({ extraConfig: { previewLines: 0, maxToolResultTokens: 1000 } });
    const result = await runProvider(trim, agentConversation(), config, context);
    const placeholder = result.messages[4]!.parts[0]!;
    expect(placeholder.type === 'tool-result' && placeholder.output).not.toContain('First lines:');
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(runProvider(trim, agentConversation(), resolveCompressionConfig(), { ...context, abortSignal: controller.signal })).rejects.toThrow();
  });
});
