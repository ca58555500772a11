import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createProviderContext, findIntegrityViolations, resolveCompressionConfig, type ToolCallPart, runProvider } from '@ollm/core';
import { parseTranscript, serializeTranscript, withConversationMessages } from '@ollm/transcripts';
import { expect, it } from 'vitest';
import trim from './index.js';

const file = fileURLToPath(new URL('../../../fixtures/swe-agent-django/django__django-11999.traj.json', import.meta.url));
const context = createProviderContext();

interface WrittenMessage {
  readonly role: string;
  readonly tool_calls?: { id: string; function: { name: string; arguments: string } }[];
}

function calls(messages: readonly { parts: readonly { type: string }[] }[]): ToolCallPart[] {
  return messages.flatMap((message) => message.parts.filter((part): part is ToolCallPart => part.type === 'tool-call'));
}

it('writes folded SWE-agent tool calls back as valid trajectories whose arguments parse as JSON', async () => {
  const source = readFileSync(file, 'utf8');
  const transcript = parseTranscript(source, { file });
  const messages = transcript.conversations[0]!.messages;
  const limit = Math.floor(context.tokens.countMessages(messages) / 2);
  const logdir = mkdtempSync(join(tmpdir(), 'trim-round-trip-'));
  const result = await runProvider(trim, messages, resolveCompressionConfig({ limit, logdir }), context);
  expect(findIntegrityViolations(messages, result, context.tokens)).toEqual([]);
  const folds = result.removed.filter((entry) => entry.kind === 'tool-call-input');
  expect(folds.length).toBeGreaterThan(0);

  const written = serializeTranscript(withConversationMessages(transcript, 0, result.messages));
  const reread = parseTranscript(written, { file });
  expect(reread.format).toBe('swe-agent');
  // What was written is what trim returned: every call, folded or not, reads back the same.
  expect(calls(reread.conversations[0]!.messages)).toEqual(calls(result.messages));

  const sourceCalls = new Map(
    (JSON.parse(source) as { messages: WrittenMessage[] }).messages
      .flatMap((message) => message.tool_calls ?? [])
      .map((call) => [call.id, call.function.arguments]),
  );
  let foldedCalls = 0;
  for (const message of (JSON.parse(written) as { messages: WrittenMessage[] }).messages) {
    for (const call of message.tool_calls ?? []) {
      const parsed = JSON.parse(call.function.arguments) as { command: unknown };
      expect(Object.keys(parsed)).toEqual(Object.keys(JSON.parse(sourceCalls.get(call.id)!) as object));
      expect(typeof parsed.command).toBe('string');
      if (call.function.arguments === sourceCalls.get(call.id)) continue;
      foldedCalls++;
      const original = JSON.parse(sourceCalls.get(call.id)!) as { command: string };
      const command = parsed.command as string;
      expect(command.split('\n')[0]).toBe(original.command.split('\n')[0]);
      expect(command).toMatch(/\n# \[ollm trim\] [\d,]+ tokens of this command folded/);
    }
  }
  expect(foldedCalls).toBe(folds.length);
  // Each saved file is the call's source arguments, byte for byte.
  for (const entry of folds) {
    const sourceArguments = calls(messages.filter((message) => message.id === entry.messageId)).map((call) => sourceCalls.get(call.callId));
    expect(sourceArguments).toContain(readFileSync(entry.path!, 'utf8'));
  }
});
