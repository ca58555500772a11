import { mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OllmError, TokenCounter, checkMessageShape, compactWith, createTokenizer, messageText, type Message } from '@ollm/core';
import { RESUME_FOLD_REASON, createSummarizeProvider, parseResume } from './index.js';
import { CLIENT_KINDS, chatRequests, startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { createModel } from './test-support/fake-models.js';

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

function conversation(): Message[] {
  const messages: Message[] = [{ id: 'system', role: 'system', parts: [{ type: 'text', text: 'You are a careful coding assistant.' }] }];
  for (let turn = 0; turn < 6; turn += 1) {
    messages.push(
      { id: `user-${turn}`, role: 'user', parts: [{ type: 'text', text: `Please fix the bug number ${turn} in src/app.py and keep docs/notes.md in sync.` }] },
      { id: `call-${turn}`, role: 'assistant', parts: [{ type: 'tool-call', callId: `c${turn}`, name: 'bash', input: { command: 'cat src/app.py' } }] },
      {
        id: `result-${turn}`,
        role: 'tool',
        parts: [{ type: 'tool-result', callId: `c${turn}`, name: 'bash', output: 'def app():\n    return 1\n'.repeat(80) }],
      },
      {
        id: `answer-${turn}`,
        role: 'assistant',
        parts: [{ type: 'text', text: `I changed src/app.py to fix bug ${turn}. The secret.txt file outside is irrelevant.` }],
      },
    );
  }
  return messages;
}

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'summarize-workspace-'));
  mkdirSync(join(root, 'src'));
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'src', 'app.py'), 'def app():\n    return 2\n');
  writeFileSync(join(root, 'docs', 'notes.md'), 'word '.repeat(5000));
  return root;
}

describe.each(CLIENT_KINDS)('summarize through the %s client', (kind) => {
  // The restart used to be system + RESUME + files: no user message at all, which the Anthropic
  // API and strict chat templates refuse. It keeps the task and the latest request now.
  it('restarts from system + the first user message + the latest + RESUME + the named files (capped); the others folded; RESUME saved', async () => {
    const input = conversation();
    const root = workspace();
    const logdir = mkdtempSync(join(tmpdir(), 'summarize-log-'));
    const result = await compactWith(createSummarizeProvider({ fileMaxTokens: 300 }), input, {
      config: { limit: 2000, logdir, extraConfig: { workspace: root } },
      context: { model: createModel(server, kind) },
      shape: 'strict',
    });
    expect(checkMessageShape(result.messages, 'strict')).toEqual([]);
    // The latest request was answered: its answer is in the RESUME after it, and a note stands
    // between the task and the latest request, so turns alternate.
    const [system, task, note, latest, resume, ...files] = result.messages;
    expect(system).toBe(input[0]);
    expect(task).toBe(input[1]);
    expect(messageText(note!)).toMatch(/summarised in the RESUME below/);
    expect(latest).toBe(input.findLast((message) => message.role === 'user'));
    expect(resume!.role).toBe('assistant');
    const resumeText = messageText(resume!);
    expect(parseResume(resumeText).missing).toEqual([]);
    expect(files.map((file) => file.metadata?.['path'])).toEqual(['src/app.py', 'docs/notes.md']);
    expect(messageText(files[0]!)).toContain('return 2');
    expect(messageText(files[1]!)).toContain('cut to its first part');
    expect(result.limitations.join('\n')).toContain('docs/notes.md cut to 300');
    // Every other user message is declared folded, and nothing of the old turns is left.
    const users = input.filter((message) => message.role === 'user').map((message) => message.id);
    expect(result.folded!.map((entry) => entry.messageId)).toEqual(users.slice(1, -1));
    expect(result.folded!.every((entry) => entry.reason === RESUME_FOLD_REASON)).toBe(true);
    expect(result.removed).toHaveLength(input.length - 3);
    // The RESUME is on disk and its path is in the limitations.
    const saved = /RESUME saved to (\S+)/.exec(result.limitations.join('\n'))![1]!;
    expect(saved).toMatch(/RESUME-.*\.md$/);
    expect(readFileSync(saved, 'utf8')).toContain('## Summary');
    expect(result.stats.modelCalls).toBe(chatRequests(server).length);
    // The prompt put the conversation inside the delimiters and asked for the four sections.
    const prompt = messageText(chatRequests(server).at(-1)!.messages.at(-1)!);
    expect(prompt).toContain('## Context Files');
    expect(prompt.match(/<conversation>/g)).toHaveLength(1);
  });
});

describe('summarize context files', () => {
  it('refuses paths outside the workspace, including through a symlink', async () => {
    const root = workspace();
    const outside = mkdtempSync(join(tmpdir(), 'summarize-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'TOP SECRET');
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
    const reply = `## Summary\nFixed bugs.\n## Technical Context\nPython.\n## Current State\nDone.\n## Context Files\n- ${join(outside, 'secret.txt')}\n- ../secret.txt\n- link.txt\n- src/app.py\n- missing.py`;
    const custom = await startFakeModelServer({ reply: () => reply });
    try {
      const result = await compactWith(createSummarizeProvider(), conversation(), {
        config: { limit: 1000, extraConfig: { workspace: root } },
        context: { model: createModel(custom, 'ollama') },
      });
      const text = result.messages.map(messageText).join('\n');
      expect(text).not.toContain('TOP SECRET');
      expect(text).toContain('return 2');
      const notes = result.limitations.join('\n');
      expect(notes).toMatch(/secret\.txt not read: outside the workspace, refused/);
      expect(notes).toMatch(/link\.txt not read: a link leading outside the workspace, refused/);
      expect(notes).toMatch(/missing\.py not read: does not exist/);
    } finally {
      await custom.close();
    }
  });

  it('throws no-model without a model', async () => {
    const error = await compactWith(createSummarizeProvider(), conversation(), { config: { limit: 500 } }).catch((caught: unknown) => caught);
    expect(OllmError.isInstance(error) && error.code).toBe('no-model');
  });
});

describe('summarize logdir', () => {
  const short: Message[] = [
    { id: 'system', role: 'system', parts: [{ type: 'text', text: 'You are terse.' }] },
    { id: 'user', role: 'user', parts: [{ type: 'text', text: 'Fix src/app.py.' }] },
    { id: 'answer', role: 'assistant', parts: [{ type: 'text', text: 'Done.' }] },
  ];
  const longResume = `## Summary\n${'The fix touched src/app.py and its tests. '.repeat(40)}\n## Technical Context\nPython.\n## Current State\nDone.\n## Context Files\n`;

  it.each([
    { name: 'not smaller than the conversation', reply: longResume, limitation: /not smaller/ },
    { name: 'empty', reply: '', limitation: /empty RESUME/ },
  ])('a discarded RESUME ($name) leaves no RESUME file in logdir', async ({ reply, limitation }) => {
    const custom = await startFakeModelServer({ reply: () => reply });
    try {
      const logdir = mkdtempSync(join(tmpdir(), 'summarize-discard-'));
      const result = await compactWith(createSummarizeProvider(), short, {
        config: { limit: 10, logdir, extraConfig: { workspace: logdir } },
        context: { model: createModel(custom, 'openai') },
      });
      expect(result.messages).toEqual(short);
      expect(result.limitations.join('\n')).toMatch(limitation);
      expect(readdirSync(logdir).filter((name) => name.startsWith('RESUME'))).toEqual([]);
    } finally {
      await custom.close();
    }
  });
});
