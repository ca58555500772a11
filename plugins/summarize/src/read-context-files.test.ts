import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenCounter, compactWith, createTokenizer, messageText, type Message } from '@ollm/core';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { MAXIMUM_CONTEXT_FILE_BYTES, readContextFiles } from './read-context-files.js';
import { createSummarizeProvider } from './summarize-provider.js';
import { createModel } from './test-support/fake-models.js';

const RESUME = '## Summary\nFixed it.\n## Technical Context\nPython.\n## Current State\nDone.\n## Context Files\n- data/huge.log\n- src/app.py';

let server: FakeModelServer;
let root: string;
beforeAll(async () => {
  server = await startFakeModelServer({ reply: () => RESUME });
  root = mkdtempSync(join(tmpdir(), 'summarize-oversized-'));
  mkdirSync(join(root, 'data'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'app.py'), 'def app():\n    return 2\n');
  // A sparse 600 MB file: its size is real, its blocks are not, so the test costs no disk.
  const descriptor = openSync(join(root, 'data', 'huge.log'), 'w');
  ftruncateSync(descriptor, 600 * 1024 * 1024);
  closeSync(descriptor);
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

function conversation(): Message[] {
  const messages: Message[] = [{ id: 'system', role: 'system', parts: [{ type: 'text', text: 'You code.' }] }];
  for (let turn = 0; turn < 5; turn += 1) {
    messages.push(
      { id: `user-${turn}`, role: 'user', parts: [{ type: 'text', text: `Look at data/huge.log and fix src/app.py, step ${turn}.` }] },
      { id: `answer-${turn}`, role: 'assistant', parts: [{ type: 'text', text: `Step ${turn}: ${'I read the log and changed the code. '.repeat(30)}` }] },
    );
  }
  return messages;
}

describe('context files a RESUME names', () => {
  it('a 600 MB file is skipped by its size, never read, with a limitation; the compaction goes on with the other files', async () => {
    const result = await compactWith(createSummarizeProvider(), conversation(), {
      config: { limit: 1500, extraConfig: { workspace: root } },
      context: { model: createModel(server, 'ollama') },
    });
    const files = result.messages.filter((message) => message.metadata?.['path'] !== undefined);
    expect(files.map((file) => file.metadata?.['path'])).toEqual(['src/app.py']);
    expect(messageText(files[0]!)).toContain('return 2');
    expect(result.limitations).toContain('summarize: context file data/huge.log not read: 629,145,600 bytes, over the limit of 1,048,576 for a context file');
  });

  it('reads a file at the limit, and skips one a byte over it', () => {
    const text = 'one line, code;\n'.repeat(MAXIMUM_CONTEXT_FILE_BYTES / 16);
    expect(text.length).toBe(MAXIMUM_CONTEXT_FILE_BYTES);
    writeFileSync(join(root, 'data', 'at-limit.txt'), text);
    writeFileSync(join(root, 'data', 'over.txt'), `${text}x`);
    const read = readContextFiles(['data/at-limit.txt', 'data/over.txt'], root, 50, new TokenCounter(createTokenizer('o200k_base')));
    expect(read.files.map((file) => [file.path, file.cut])).toEqual([['data/at-limit.txt', true]]);
    expect(read.skipped).toEqual([{ path: 'data/over.txt', reason: '1,048,577 bytes, over the limit of 1,048,576 for a context file' }]);
  });
});
