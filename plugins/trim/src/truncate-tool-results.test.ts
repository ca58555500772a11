import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTokenizer, type TokenCounting, type ToolResultPart, TokenCounter } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { ConversationBuilder, numberedLines } from './test-support/conversation-builder.js';
import { TrimWorkspace } from './trim-workspace.js';
import { PLACEHOLDER_PREFIX } from './tool-result-placeholder.js';
import { indexToolCalls, truncateToolResults } from './truncate-tool-results.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));
const preview = { previewLines: 3, previewLineCharacters: 160 };

/** Three tool outputs of clearly different sizes, the middle one largest. */
function conversation() {
  return new ConversationBuilder()
    .system('You are a coding agent.')
    .user('Fix it.')
    .toolRound('cat small.py', numberedLines(300, 'small'))
    .toolRound('cat django/db/models/fields/__init__.py', numberedLines(900, 'large'))
    .toolRound('cat medium.py', numberedLines(600, 'medium'))
    .toolRound('ls', 'a.py\nb.py')
    .build();
}

function outputs(messages: readonly { parts: readonly unknown[] }[]): string[] {
  return messages.flatMap((message) => (message.parts as ToolResultPart[]).filter((part) => part.type === 'tool-result').map((part) => part.output));
}

describe('truncateToolResults (phase 2)', () => {
  it('truncates every output over the threshold when there is no limit, and nothing under it', () => {
    const workspace = new TrimWorkspace(conversation(), tokens, undefined, undefined);
    expect(truncateToolResults(workspace, indexToolCalls(workspace.messages), { threshold: 2000, ...preview })).toBe(3);
    const result = outputs(workspace.messages);
    expect(result.slice(0, 3).every((output) => output.startsWith(PLACEHOLDER_PREFIX))).toBe(true);
    expect(result[3]).toBe('a.py\nb.py');
  });

  it('goes largest first and stops as soon as the conversation is under the limit', () => {
    const messages = conversation();
    const total = tokens.countMessages(messages);
    const largest = tokens.countText(numberedLines(900, 'large'));
    // Removing the largest output alone is enough to get under this limit.
    const workspace = new TrimWorkspace(messages, tokens, undefined, total - largest + 500);
    expect(truncateToolResults(workspace, indexToolCalls(messages), { threshold: 2000, ...preview })).toBe(1);
    expect(workspace.removed.map((entry) => entry.messageId)).toEqual(['m5']);
    expect(workspace.overLimit).toBe(false);

    const tighter = new TrimWorkspace(messages, tokens, undefined, total - largest - 500);
    truncateToolResults(tighter, indexToolCalls(messages), { threshold: 2000, ...preview });
    // Next in size is the medium output (m7), not the earlier small one (m3).
    expect(tighter.removed.map((entry) => entry.messageId)).toEqual(['m5', 'm7']);
  });

  it('writes a placeholder with tool, command, tokens removed, head and tail preview and a 12-hex recovery reference (no path)', () => {
    const logdir = mkdtempSync(join(tmpdir(), 'trim-tool-'));
    const messages = conversation();
    const workspace = new TrimWorkspace(messages, tokens, logdir, undefined);
    truncateToolResults(workspace, indexToolCalls(messages), { threshold: 2000, ...preview });
    const entry = workspace.removed.find((removed) => removed.messageId === 'm5')!;
    const placeholder = outputs([workspace.messages[5]!])[0]!;
    const original = numberedLines(900, 'large');
    const removedTokens = tokens.countText(original) - tokens.countText(placeholder);
    expect(placeholder.startsWith('[ollm trim] `bash` output truncated')).toBe(true);
    expect(placeholder).toContain(`${removedTokens} of ${tokens.countText(original)} tokens removed (900 lines)`);
    expect(placeholder).toContain('Command: cat django/db/models/fields/__init__.py');
    for (const line of ['large 1:', 'large 2:', 'large 3:', 'large 898:', 'large 899:', 'large 900:']) expect(placeholder).toContain(line);
    expect(placeholder).not.toContain('large 4:');
    expect(placeholder).not.toContain('large 897:');
    expect(placeholder).toContain('894 more lines');
    expect(placeholder).not.toContain(entry.path!);
    expect(placeholder).toContain(`ollm recover ${entry.sha256.slice(0, 12)}`);
    expect(readFileSync(entry.path!, 'utf8')).toBe(original);
    expect(entry.originalTokens).toBe(tokens.countText(original));
  });

  it('leaves an output alone when its placeholder would not be smaller', () => {
    const messages = new ConversationBuilder().toolRound('ls', 'a.py\nb.py').build();
    const workspace = new TrimWorkspace(messages, tokens, undefined, undefined);
    expect(truncateToolResults(workspace, indexToolCalls(messages), { threshold: 0, ...preview })).toBe(0);
    expect(workspace.messages).toEqual(messages);
    expect(workspace.removed).toEqual([]);
  });

  it('skips blank lines and bare markup such as <output> in the preview, and puts the exit code in the header', () => {
    const output = `<returncode>1</returncode>\n<output>\n\n${numberedLines(400)}\n</output>\n`;
    const messages = new ConversationBuilder().toolRound('python run.py', output).build();
    const workspace = new TrimWorkspace(messages, tokens, undefined, undefined);
    truncateToolResults(workspace, indexToolCalls(messages), { threshold: 100, ...preview });
    const placeholder = outputs(workspace.messages)[0]!;
    expect(placeholder).toContain('First lines:\n  line 1:');
    expect(placeholder).toContain('  line 400: lorem ipsum dolor sit amet\nFull output');
    expect(placeholder).toContain('(404 lines, exit code 1)');
  });

  it('says the output cannot be recovered when there is no logdir', () => {
    const workspace = new TrimWorkspace(conversation(), tokens, undefined, undefined);
    truncateToolResults(workspace, indexToolCalls(workspace.messages), { threshold: 2000, ...preview });
    expect(outputs(workspace.messages)[0]).toContain('NOT saved (no logdir configured)');
  });

  it('never truncates a placeholder again in a later pass', () => {
    const messages = new ConversationBuilder().toolRound('cat big.py', numberedLines(900)).toolRound('cat short.py', numberedLines(60)).build();
    const workspace = new TrimWorkspace(messages, tokens, undefined, undefined);
    const calls = indexToolCalls(workspace.messages);
    expect(truncateToolResults(workspace, calls, { threshold: 2000, ...preview })).toBe(1);
    const placeholder = workspace.messages[1];
    // A threshold below the placeholder's own size: only the short original output is left to truncate.
    expect(truncateToolResults(workspace, calls, { threshold: 1, ...preview })).toBe(1);
    expect(workspace.messages[1]).toBe(placeholder);
    expect(workspace.removed.map((entry) => entry.messageId)).toEqual(['m1', 'm3']);
  });

  it('gives the same placeholder part when the same outputs are truncated again, and a new one when what it shows changes', () => {
    const messages = conversation();
    const truncatedParts = (logdir: string | undefined, counter: TokenCounting = tokens) => {
      const workspace = new TrimWorkspace(messages, counter, logdir, undefined);
      truncateToolResults(workspace, indexToolCalls(workspace.messages), { threshold: 2000, ...preview });
      return workspace.messages.flatMap((message) => message.parts.filter((part) => part.type === 'tool-result' && part.output.startsWith(PLACEHOLDER_PREFIX)));
    };
    const first = truncatedParts(undefined);
    expect(first).toHaveLength(3);
    // A live session compacts the same messages again: the same part objects, which later stages remember.
    const again = truncatedParts(undefined);
    again.forEach((part, index) => expect(part).toBe(first[index]));
    // A logdir changes what the placeholder says: made again, not the remembered text.
    const logdir = mkdtempSync(join(tmpdir(), 'ollm-trim-again-'));
    const saved = truncatedParts(logdir);
    saved.forEach((part, index) => {
      expect(part).not.toBe(first[index]);
      expect((part as ToolResultPart).output).toContain('Full output saved');
    });
    // Another encoding counts the placeholder differently: its own placeholder.
    const other = truncatedParts(undefined, new TokenCounter(createTokenizer('cl100k_base')));
    other.forEach((part, index) => expect(part).not.toBe(first[index]));
  });
});
