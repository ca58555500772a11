import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createProviderContext, findIntegrityViolations, messageText, resolveCompressionConfig, sha256Hex, type Message, runProvider } from '@ollm/core';
import { readTranscript } from '@ollm/transcripts';
import { describe, expect, it } from 'vitest';
import trim, { isFoldedToolCall, rawToolCallInput } from './index.js';

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
const repositoryFolder = join(repositoryRoot, 'fixtures', 'swe-agent-django');
// The broader set lives beside the repository and is absent on a fresh clone.
const sharedFolder = join(repositoryRoot, '..', 'shared', 'fixtures', 'swe-agent-django');

function trajectories(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith('.traj.json'))
    .sort()
    .map((name) => join(folder, name));
}

const repositoryFiles = trajectories(repositoryFolder);
const sharedFiles = trajectories(sharedFolder).filter((file) => !repositoryFiles.some((own) => basename(own) === basename(file)));
const context = createProviderContext();

/** Whether `content` is exactly a piece of `original` that trim may remove under `kind`. */
function isPieceOf(original: Message, kind: string, content: string): boolean {
  switch (kind) {
    case 'tool-result':
      return original.parts.some((part) => part.type === 'tool-result' && part.output === content);
    case 'assistant-text':
      return messageText(original) === content;
    case 'tool-call-input':
      return original.parts.some((part) => part.type === 'tool-call' && rawToolCallInput(part) === content);
    case 'reasoning':
      return original.parts.some((part) => (part.type === 'reasoning' && part.text === content) || (part.type === 'text' && part.text.includes(content)));
    default:
      return false;
  }
}

async function checkTranscript(file: string): Promise<void> {
  const transcript = await readTranscript(file);
  const messages = transcript.conversations[0]!.messages;
  const total = context.tokens.countMessages(messages);
  const limit = Math.floor(total / 2);
  const logdir = mkdtempSync(join(tmpdir(), 'trim-fixture-'));
  const result = await runProvider(trim, messages, resolveCompressionConfig({ limit, logdir }), context);

  expect(findIntegrityViolations(messages, result, context.tokens)).toEqual([]);
  if (result.stats.tokensAfter > limit) expect(result.limitations.join('\n')).toContain('still over the limit');
  expect(result.stats.tokensAfter).toBeLessThan(total);

  const output = new Map(result.messages.map((message) => [message.id, message]));
  for (const message of messages) {
    if (message.role === 'user' || message.role === 'system' || message.pinned) expect(output.get(message.id)).toBe(message);
  }

  // A folded call keeps its input's shape, and its raw arguments (what writers emit) say the same.
  for (const message of result.messages) {
    for (const part of message.parts)
      if (part.type === 'tool-call' && isFoldedToolCall(part) && part.rawInput !== undefined) expect(JSON.parse(part.rawInput)).toEqual(part.input);
  }

  const byId = new Map(messages.map((message) => [message.id, message]));
  expect(result.removed.length).toBeGreaterThan(0);
  for (const entry of result.removed) {
    const content = readFileSync(entry.path!, 'utf8');
    expect(sha256Hex(content)).toBe(entry.sha256);
    expect(isPieceOf(byId.get(entry.messageId)!, entry.kind, content)).toBe(true);
  }
}

describe('trim on real SWE-agent transcripts at limit = half their tokens', () => {
  it('has repository fixtures to run on', () => {
    expect(repositoryFiles.length).toBeGreaterThan(0);
  });
  for (const file of repositoryFiles) it(`keeps ${basename(file)} valid, under the limit or says why, and recoverable`, () => checkTranscript(file));
  describe.runIf(sharedFiles.length > 0)('shared fixtures', () => {
    for (const file of sharedFiles) it(`keeps ${basename(file)} valid, under the limit or says why, and recoverable`, () => checkTranscript(file));
  });
});
