import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTokenizer, sha256Hex, type TokenCounting, type Message, type ToolCallPart, TokenCounter } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { foldToolCallInputs } from './fold-tool-call-inputs.js';
import { rawToolCallInput } from './fold-tool-call.js';
import { ConversationBuilder, numberedLines } from './test-support/conversation-builder.js';
import { TrimWorkspace } from './trim-workspace.js';
import { indexToolCalls, truncateToolResults } from './truncate-tool-results.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));
const options = { threshold: 400, ageThreshold: 5, previewLineCharacters: 160 };

function heredoc(file: string, lines: number): string {
  return `cat > /testbed/${file} << 'EOF'\n${numberedLines(lines, file)}\nEOF\npython /testbed/${file}`;
}

/** Old calls of about 700, 1,300 and 250 tokens, a small one, then a large call among the last five messages. */
function conversation(): Message[] {
  return new ConversationBuilder()
    .system('You are a coding agent.')
    .user('Fix it.')
    .toolRound(heredoc('reproduce.py', 80), 'Traceback: TypeError')
    .toolRound(heredoc('test_fix.py', 150), 'OK')
    .toolRound(heredoc('check.py', 30), 'OK')
    .toolRound('ls', 'a.py')
    .toolRound(heredoc('recent.py', 200), numberedLines(400, 'out'))
    .assistant('Done.')
    .build();
}

function callOf(message: Message): ToolCallPart {
  return message.parts.find((part): part is ToolCallPart => part.type === 'tool-call')!;
}

function callTokens(messages: readonly Message[], index: number): number {
  return tokens.countText(rawToolCallInput(callOf(messages[index]!)));
}

describe('foldToolCallInputs (phase 3)', () => {
  it('folds nothing without a limit or when under it', () => {
    const messages = conversation();
    const unlimited = new TrimWorkspace(messages, tokens, undefined, undefined);
    expect(foldToolCallInputs(unlimited, options)).toBe(0);
    expect(unlimited.messages).toEqual(messages);
    const roomy = new TrimWorkspace(messages, tokens, undefined, tokens.countMessages(messages));
    expect(foldToolCallInputs(roomy, options)).toBe(0);
  });

  it('folds old calls over the threshold, largest first, never the recent ones', () => {
    const messages = conversation();
    const workspace = new TrimWorkspace(messages, tokens, undefined, 10);
    expect(foldToolCallInputs(workspace, options)).toBe(2);
    expect(workspace.removed.map((entry) => `${entry.messageId}:${entry.kind}`)).toEqual(['m4:tool-call-input', 'm2:tool-call-input']);
    // check.py (about 250 tokens) is under the threshold; recent.py is in the last five messages.
    expect(workspace.messages[6]).toBe(messages[6]);
    expect(workspace.messages[10]).toBe(messages[10]);
    const folded = callOf(workspace.messages[4]!);
    expect(folded.callId).toBe(callOf(messages[4]!).callId);
    expect((folded.input as { command: string }).command.split('\n')).toEqual([
      `cat > /testbed/test_fix.py << 'EOF'`,
      expect.stringMatching(/^# \[ollm trim\] [\d,]+ tokens of this command folded \(153 lines\); NOT saved/),
      'EOF',
      'python /testbed/test_fix.py',
    ]);
    expect(JSON.parse(folded.rawInput!)).toEqual(folded.input);
    expect(workspace.totalTokens).toBe(tokens.countMessages(workspace.messages));
  });

  it('stops as soon as the conversation is under the limit', () => {
    const messages = conversation();
    const total = tokens.countMessages(messages);
    const workspace = new TrimWorkspace(messages, tokens, undefined, total - callTokens(messages, 4) + 200);
    expect(foldToolCallInputs(workspace, options)).toBe(1);
    expect(workspace.removed.map((entry) => entry.messageId)).toEqual(['m4']);
    expect(workspace.overLimit).toBe(false);
  });

  it('reaches smaller calls with a lower threshold', () => {
    const workspace = new TrimWorkspace(conversation(), tokens, undefined, 10);
    foldToolCallInputs(workspace, options);
    expect(foldToolCallInputs(workspace, { ...options, threshold: 100 })).toBe(1);
    expect(workspace.removed.map((entry) => entry.messageId)).toEqual(['m4', 'm2', 'm6']);
  });

  it('counts a call of fewer characters than the threshold whose characters are several tokens each', () => {
    // 'ꙮ' is three tokens in o200k: these lines are over the threshold in tokens, under it in characters.
    const wide = Array.from({ length: 9 }, () => 'ꙮ'.repeat(36)).join('\n');
    const messages = new ConversationBuilder()
      .system('You are a coding agent.')
      .user('Fix it.')
      .toolRound(wide, 'OK')
      .toolRound('ls', 'a.py')
      .toolRound('ls', 'b.py')
      .toolRound('ls', 'c.py')
      .build();
    const raw = rawToolCallInput(callOf(messages[2]!));
    expect(raw.length).toBeLessThanOrEqual(options.threshold);
    expect(tokens.countText(raw)).toBeGreaterThan(options.threshold);
    const workspace = new TrimWorkspace(messages, tokens, undefined, 10);
    expect(foldToolCallInputs(workspace, options)).toBe(1);
    expect(workspace.removed.map((entry) => `${entry.messageId}:${entry.kind}`)).toEqual(['m2:tool-call-input']);
  });

  it('saves the raw arguments byte for byte', () => {
    const logdir = mkdtempSync(join(tmpdir(), 'trim-calls-'));
    const messages = conversation();
    const workspace = new TrimWorkspace(messages, tokens, logdir, 10);
    foldToolCallInputs(workspace, options);
    for (const entry of workspace.removed) {
      const original = rawToolCallInput(callOf(messages.find((message) => message.id === entry.messageId)!));
      expect(readFileSync(entry.path!, 'utf8')).toBe(original);
      expect(entry.sha256).toBe(sha256Hex(original));
      expect(entry.originalTokens).toBe(tokens.countText(original));
      const command = (callOf(workspace.messages.find((message) => message.id === entry.messageId)!).input as { command: string }).command;
      expect(command).toContain(`ollm recover ${entry.sha256.slice(0, 12)}`);
    }
  });

  it('keeps a recent call whole even when its output was truncated, and never touches pinned messages', () => {
    const messages = conversation().map((message) => (message.id === 'm4' ? { ...message, pinned: true } : message));
    const workspace = new TrimWorkspace(messages, tokens, undefined, 10);
    truncateToolResults(workspace, indexToolCalls(messages), { threshold: 100, previewLines: 1, previewLineCharacters: 160 });
    expect(workspace.removed.map((entry) => entry.messageId)).toEqual(['m11']);
    foldToolCallInputs(workspace, { ...options, threshold: 100 });
    expect(workspace.removed.map((entry) => entry.messageId)).toEqual(['m11', 'm2', 'm6']);
    expect(workspace.messages[4]).toBe(messages[4]);
    expect(workspace.messages[10]).toBe(messages[10]);
  });

  it('never folds a folded call again', () => {
    const first = new TrimWorkspace(conversation(), tokens, undefined, 10);
    foldToolCallInputs(first, options);
    const second = new TrimWorkspace(first.messages, tokens, undefined, 10);
    expect(foldToolCallInputs(second, { ...options, threshold: 1 })).toBe(1);
    expect(second.removed.map((entry) => entry.messageId)).toEqual(['m6']);
    expect(second.messages[2]).toBe(first.messages[2]);
    expect(second.messages[4]).toBe(first.messages[4]);
  });
});
