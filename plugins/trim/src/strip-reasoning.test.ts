import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTokenizer, sha256Hex, type TokenCounting, TokenCounter } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { stripReasoning } from './strip-reasoning.js';
import { ConversationBuilder } from './test-support/conversation-builder.js';
import { TrimWorkspace } from './trim-workspace.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));

function conversation() {
  const builder = new ConversationBuilder().system('You are helpful.').user('Fix the bug.');
  for (let turn = 0; turn < 8; turn++) builder.assistant(`Answer ${turn}.`, `Thinking hard about step ${turn} of the plan.`);
  return builder.build();
}

describe('stripReasoning (phase 1)', () => {
  it('strips reasoning only from messages older than the age threshold', () => {
    const messages = conversation();
    const workspace = new TrimWorkspace(messages, tokens, undefined, undefined);
    const changed = stripReasoning(workspace, 5);
    // 10 messages: indexes 0..4 are older than 5 from the end; 2, 3 and 4 are assistant messages.
    expect(changed).toBe(3);
    workspace.messages.forEach((message, index) => {
      const hasReasoning = message.parts.some((part) => part.type === 'reasoning');
      if (message.role === 'assistant') expect(hasReasoning).toBe(index >= 5);
    });
    expect(workspace.messages[0]).toBe(messages[0]);
    expect(workspace.messages[1]).toBe(messages[1]);
    expect(workspace.removed.map((entry) => entry.messageId)).toEqual(['m2', 'm3', 'm4']);
    expect(workspace.removed.every((entry) => entry.kind === 'reasoning' && entry.path === undefined)).toBe(true);
  });

  it('removes <think> and <thinking> blocks inside text and saves each block byte for byte', () => {
    const logdir = mkdtempSync(join(tmpdir(), 'trim-reasoning-'));
    const think = '<think>\nThe bug is in parse().\n</think>';
    const thinking = '<thinking>second thought</thinking>';
    const messages = new ConversationBuilder().user('go').assistant(`${think}\n\nThe fix is ready. ${thinking} Done.`).user('thanks').build();
    const workspace = new TrimWorkspace(messages, tokens, logdir, undefined);
    expect(stripReasoning(workspace, 1)).toBe(1);
    const text = workspace.messages[1]!.parts[0];
    expect(text).toEqual({ type: 'text', text: 'The fix is ready.  Done.' });
    expect(workspace.removed).toHaveLength(2);
    for (const [index, original] of [think, thinking].entries()) {
      const entry = workspace.removed[index]!;
      expect(entry.sha256).toBe(sha256Hex(original));
      expect(readFileSync(entry.path!, 'utf8')).toBe(original);
    }
  });

  it('never touches pinned assistant messages and keeps a marker when only reasoning was there', () => {
    const messages = new ConversationBuilder()
      .assistant('pinned answer', 'pinned reasoning', { pinned: true })
      .assistant('', 'only reasoning here, quite a lot of it to be worth removing')
      .user('next')
      .build();
    const only = { ...messages[1]!, parts: messages[1]!.parts.filter((part) => part.type === 'reasoning') };
    const workspace = new TrimWorkspace([messages[0]!, only, messages[2]!], tokens, undefined, undefined);
    stripReasoning(workspace, 1);
    expect(workspace.messages[0]).toBe(messages[0]);
    expect(workspace.messages[1]!.parts).toEqual([{ type: 'text', text: '[reasoning removed]' }]);
  });
});
