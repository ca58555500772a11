import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  compactWith,
  createProviderContext,
  findIntegrityViolations,
  resolveCompressionConfig,
  sha256Hex,
  type CompressionConfig,
  type Message,
  runProvider,
} from '@ollm/core';
import mask, { createMaskProvider, isPlaceholder, PLACEHOLDER_PREFIX } from './index.js';
import { bashOutput, buildConversation, resultOutput, type ToolTurn } from './test-support/build-conversation.js';

const context = createProviderContext();
const logdir = mkdtempSync(join(tmpdir(), 'ollm-mask-'));
afterAll(() => rmSync(logdir, { recursive: true, force: true }));

function turns(count: number, extra: Partial<ToolTurn> = {}): ToolTurn[] {
  return Array.from({ length: count }, (_, index) => ({ command: `grep -rn handler_${index} /testbed`, output: bashOutput(`area${index}`), ...extra }));
}

async function run(messages: readonly Message[], config: Partial<CompressionConfig> = {}, provider = mask) {
  const result = await runProvider(provider, messages, resolveCompressionConfig({ logdir, ...config }), context);
  expect(findIntegrityViolations(messages, result, context.tokens)).toEqual([]);
  return result;
}

function maskedTurns(messages: readonly Message[], count: number): number[] {
  return Array.from({ length: count }, (_, index) => index).filter((index) => isPlaceholder(resultOutput(messages, index)));
}

describe('mask provider', () => {
  it('is a v1 provider named mask', () => {
    expect(mask.specificationVersion).toBe('v2');
    expect(mask.usesModel).toBe(false);
    expect(mask.name).toBe('mask');
  });

  it('leaves a conversation already within the limit as it is', async () => {
    const messages = buildConversation(turns(3));
    const tokens = context.tokens.countMessages(messages);
    const result = await runProvider(mask, messages, resolveCompressionConfig({ limit: tokens }), context);
    expect(result.messages).toEqual(messages);
    expect(result.removed).toEqual([]);
  });

  it('without a limit masks every tool output but the last 10 (mode all)', async () => {
    const messages = buildConversation(turns(14));
    const result = await run(messages);
    expect(maskedTurns(result.messages, 14)).toEqual([0, 1, 2, 3]);
    expect(result.removed.map((entry) => entry.messageId)).toEqual(['tool_0', 'tool_1', 'tool_2', 'tool_3']);
    expect(result.stats.tokensAfter).toBeLessThan(result.stats.tokensBefore);
  });

  it('honours keepLast from options and from config.extraConfig (config wins)', async () => {
    const messages = buildConversation(turns(6));
    expect(maskedTurns((await run(messages, {}, createMaskProvider({ keepLast: 2 }))).messages, 6)).toEqual([0, 1, 2, 3]);
    const fromConfig = await run(messages, { extraConfig: { keepLast: 5 } }, createMaskProvider({ keepLast: 2 }));
    expect(maskedTurns(fromConfig.messages, 6)).toEqual([0]);
    expect(maskedTurns((await run(messages, { extraConfig: { keepLast: 0 } })).messages, 6)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('until-limit masks oldest first and stops once under the limit', async () => {
    const messages = buildConversation(turns(16));
    const before = context.tokens.countMessages(messages);
    const result = await run(messages, { limit: before - 1200 });
    const masked = maskedTurns(result.messages, 16);
    expect(masked.length).toBeGreaterThan(0);
    expect(masked.length).toBeLessThan(6);
    expect(masked).toEqual(Array.from({ length: masked.length }, (_, index) => index));
    expect(result.stats.tokensAfter).toBeLessThanOrEqual(before - 1200);
    expect(result.limitations.some((line) => line.includes('over the limit'))).toBe(false);

    const all = await run(messages, { limit: before - 1200, extraConfig: { mode: 'all' } });
    expect(maskedTurns(all.messages, 16)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('reports the numbers when masking all it may still leaves it over the limit', async () => {
    const messages = buildConversation(turns(12));
    const result = await run(messages, { limit: 100 });
    expect(maskedTurns(result.messages, 12)).toEqual([0, 1]);
    const note = result.limitations.find((line) => line.includes('over the limit'));
    expect(note).toContain(`still ${result.stats.tokensAfter} tokens`);
    expect(note).toContain('limit of 100');
    expect(note).toContain('the last 10 (keepLast 10)');
  });

  it('placeholder keeps the call, size, hint and a 12-hex recovery reference (no path), and is smaller', async () => {
    const messages = buildConversation(turns(11));
    const original = resultOutput(messages, 0);
    const result = await run(messages);
    const placeholder = resultOutput(result.messages, 0);
    expect(placeholder.startsWith(PLACEHOLDER_PREFIX)).toBe(true);
    expect(placeholder).toContain('bash: grep -rn handler_0 /testbed');
    expect(placeholder).toContain(`${context.tokens.countText(original)} tokens, 43 lines`);
    expect(placeholder).toContain('returncode 0; first line: "/testbed/django/area0/module_0.py:1: def handler_0(request): pass"');
    const [entry] = result.removed;
    expect(entry?.sha256).toBe(sha256Hex(original));
    expect(placeholder).toContain(`recover: ollm recover ${entry!.sha256.slice(0, 12)}`);
    expect(placeholder).not.toContain(entry!.path!);
    expect(readFileSync(entry!.path!, 'utf8')).toBe(original);
    expect(entry?.originalTokens).toBe(context.tokens.countText(original));
    expect(context.tokens.countText(placeholder)).toBeLessThan(entry!.originalTokens);
  });

  it('never touches tool calls, ids, roles, timestamps or other messages', async () => {
    const messages = buildConversation(turns(12));
    const result = await run(messages);
    expect(result.messages.map((message) => [message.id, message.role, message.timestamp])).toEqual(
      messages.map((message) => [message.id, message.role, message.timestamp]),
    );
    for (const [index, message] of result.messages.entries()) {
      if (message.role !== 'tool') expect(message).toBe(messages[index]);
      const callIds = message.parts.map((part) => ('callId' in part ? part.callId : undefined));
      expect(callIds).toEqual(messages[index]!.parts.map((part) => ('callId' in part ? part.callId : undefined)));
    }
  });

  it('neverMask keeps the named tools verbatim, from options or config', async () => {
    const mixed = turns(13).map((turn, index) => (index % 2 === 0 ? { ...turn, tool: 'read_file' } : turn));
    const messages = buildConversation(mixed);
    expect(maskedTurns((await run(messages, {}, createMaskProvider({ neverMask: ['read_file'] }))).messages, 13)).toEqual([1]);
    expect(maskedTurns((await run(messages, { extraConfig: { neverMask: ['bash'] } })).messages, 13)).toEqual([0, 2]);
  });

  it('keeps small outputs that a placeholder would not shrink', async () => {
    const small = turns(12).map((turn, index) => (index === 0 ? { ...turn, output: '<returncode>0</returncode>\n<output>\n</output>' } : turn));
    const messages = buildConversation(small);
    const result = await run(messages);
    expect(resultOutput(result.messages, 0)).toBe(resultOutput(messages, 0));
    expect(maskedTurns(result.messages, 12)).toEqual([1]);
  });

  it('never edits user, system or pinned messages even when they hold tool results', async () => {
    const messages = buildConversation(turns(12)).map((message) => {
      if (message.id === 'tool_0') return { ...message, role: 'user' as const };
      if (message.id === 'tool_1') return { ...message, pinned: true };
      return message;
    });
    const result = await run(messages);
    expect(result.messages[3]).toBe(messages[3]);
    expect(result.messages[5]).toBe(messages[5]);
    expect(maskedTurns(result.messages, 12)).toEqual([]);
  });

  it('counts each result of parallel calls, masking inside one message part by part', async () => {
    const messages = buildConversation(turns(3));
    const call = (callId: string) => ({ type: 'tool-call' as const, callId, name: 'bash', input: { command: `cat ${callId}.py` } });
    const parallel: Message[] = [
      ...messages.slice(0, 2),
      { id: 'parallel_call', role: 'assistant', parts: [call('p1'), call('p2')] },
      {
        id: 'parallel_results',
        role: 'tool',
        parts: [
          { type: 'tool-result', callId: 'p1', output: bashOutput('p1') },
          { type: 'tool-result', callId: 'p2', output: bashOutput('p2') },
        ],
      },
      ...messages.slice(2),
    ];
    const result = await run(parallel, { extraConfig: { keepLast: 4 } });
    const parts = result.messages[3]!.parts;
    expect(parts[0]?.type === 'tool-result' && isPlaceholder(parts[0].output)).toBe(true);
    expect(parts[0]?.type === 'tool-result' && parts[0].output).toContain('bash: cat p1.py');
    expect(parts[1]).toBe(parallel[3]!.parts[1]);
    expect(result.removed.map((entry) => entry.messageId)).toEqual(['parallel_results']);
  });

  it('masks an unchanged conversation again into the same message objects (what is remembered by object still holds)', async () => {
    const messages = buildConversation(turns(14));
    const first = await run(messages);
    const again = await run(messages);
    expect(again.messages).toHaveLength(first.messages.length);
    again.messages.forEach((message, index) => expect(message).toBe(first.messages[index]));
    expect(maskedTurns(again.messages, 14)).toEqual([0, 1, 2, 3]);
    // Masked differently (fewer kept), the masked messages are new where their parts changed.
    const fewer = await run(messages, { extraConfig: { keepLast: 2 } });
    expect(maskedTurns(fewer.messages, 14)).toHaveLength(12);
    expect(fewer.messages.filter((message, index) => message !== first.messages[index]).length).toBe(8);
  });

  it('is idempotent: a second pass masks nothing more', async () => {
    const first = await run(buildConversation(turns(13)));
    const second = await run(first.messages);
    expect(second.removed).toEqual([]);
    expect(second.messages).toEqual(first.messages);
  });

  it('without logdir records sha256 only and says the content is not recoverable', async () => {
    const messages = buildConversation(turns(11));
    const result = await runProvider(mask, messages, resolveCompressionConfig(), context);
    expect(result.removed).toEqual([
      { messageId: 'tool_0', kind: 'tool-result', sha256: sha256Hex(resultOutput(messages, 0)), originalTokens: expect.any(Number) },
    ]);
    expect(result.limitations.join('\n')).toContain('not recoverable');
    expect(resultOutput(result.messages, 0)).toContain('not saved (no logdir)');
  });

  it('rejects bad options with a clear error', async () => {
    const messages = buildConversation(turns(2));
    await expect(run(messages, { extraConfig: { keepLast: -1 } })).rejects.toThrow(/keepLast must be a whole number/);
    await expect(run(messages, { extraConfig: { mode: 'some' } })).rejects.toThrow(/mode must be "all" or "until-limit"/);
    await expect(run(messages, { extraConfig: { neverMask: 'bash' } })).rejects.toThrow(/neverMask must be a list/);
  });

  it('passes the host validation in compactWith', async () => {
    const messages = buildConversation(turns(12));
    const result = await compactWith(mask, messages, { config: { logdir } });
    expect(result.removed).toHaveLength(2);
  });
});
