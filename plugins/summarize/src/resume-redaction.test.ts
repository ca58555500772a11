import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactWith, forgetRegisteredSecrets, readRemovedEntry, registerSecret, type Message } from '@ollm/core';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { createSummarizeProvider } from './summarize-provider.js';
import { createModel } from './test-support/fake-models.js';

const key = 'sk-"resume\\key"-42';
// A URL's credentials quoted in the conversation are content (kept, like the rest of it); registered secrets are not.
const forms = [key, JSON.stringify(key).slice(1, -1)];

let server: FakeModelServer;
let logdir: string;
beforeAll(async () => {
  registerSecret(key);
  server = await startFakeModelServer({
    reply: () =>
      `## Summary\nThe user set the key ${key} and http://me:hunter2pw@db/.\n## Technical Context\nPython.\n## Current State\nDone.\n## Context Files\n`,
  });
  logdir = mkdtempSync(join(tmpdir(), 'summarize-secrets-'));
});
afterAll(async () => {
  forgetRegisteredSecrets();
  await server.close();
  rmSync(logdir, { recursive: true, force: true });
});

describe('what summarize writes under the logdir', () => {
  it('holds no registered secret: not in the RESUME file, not in the removed messages (saved as JSON)', async () => {
    const messages: Message[] = [{ id: 'system', role: 'system', parts: [{ type: 'text', text: 'You code.' }] }];
    for (let turn = 0; turn < 4; turn += 1) {
      messages.push(
        { id: `user-${turn}`, role: 'user', parts: [{ type: 'text', text: `Use the key ${key} against http://me:hunter2pw@db/, step ${turn}.` }] },
        { id: `answer-${turn}`, role: 'assistant', parts: [{ type: 'text', text: `Step ${turn} with ${key}: ${'done and checked. '.repeat(40)}` }] },
      );
    }
    const result = await compactWith(createSummarizeProvider(), messages, {
      config: { limit: 800, logdir, extraConfig: { workspace: logdir } },
      context: { model: createModel(server, 'openai') },
    });
    expect(result.removed.length).toBeGreaterThan(0);
    const files = [
      ...readdirSync(logdir).map((name) => join(logdir, name)),
      ...readdirSync(join(logdir, 'removed')).map((name) => join(logdir, 'removed', name)),
    ];
    expect(files.some((path) => /RESUME-.*\.md$/.test(path))).toBe(true);
    for (const path of files.filter((file) => !file.endsWith('removed'))) {
      const text = readFileSync(path, 'utf8');
      for (const form of forms) expect(text, path).not.toContain(form);
      if (/RESUME-/.test(path)) expect(text).toContain('http://me:hunter2pw@db/');
    }
    // Every removed message can still be read back, redacted, by the name its entry reports.
    for (const entry of result.removed) expect(readRemovedEntry(entry.path!, entry.sha256).state).toBe('redacted');
  });
});
