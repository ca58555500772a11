import { readFileSync } from 'node:fs';
import { createTokenizer } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { fixturesPresent, sweAgentFixture, tauBenchFixture } from './fixture-paths.js';
import { runOllm } from './run-ollm.js';

interface RawMessage {
  role: string;
  content?: string | null;
  tool_calls?: unknown[];
}

interface StatsJson {
  format: string;
  encoding: string;
  conversations: {
    id: string;
    messages: number;
    messagesByRole: Record<string, number>;
    byKind: Record<string, { parts: number; tokens: number }>;
    overheadTokens: number;
    totalTokens: number;
    largestToolResult?: { tokens: number };
  }[];
  total: { messages: number; totalTokens: number; byKind: Record<string, { parts: number; tokens: number }> };
}

describe.skipIf(!fixturesPresent)('ollm stats', () => {
  it('matches an independent recount of the raw SWE-agent file', async () => {
    const raw = (JSON.parse(readFileSync(sweAgentFixture, 'utf8')) as { messages: RawMessage[] }).messages;
    const tokenizer = createTokenizer('o200k_base');
    const toolMessages = raw.filter((message) => message.role === 'tool');
    const toolTokens = toolMessages.map((message) => tokenizer.countTokens(message.content ?? ''));
    const run = await runOllm(['stats', sweAgentFixture, '--json']);
    expect(run.code).toBe(0);
    const stats = JSON.parse(run.stdout) as StatsJson;
    expect(stats.format).toBe('swe-agent');
    const [conversation] = stats.conversations;
    expect(conversation!.messagesByRole['system']).toBe(raw.filter((message) => message.role === 'system').length);
    expect(conversation!.messagesByRole['tool']).toBe(toolMessages.length);
    expect(conversation!.byKind['toolCalls']!.parts).toBe(raw.reduce((sum, message) => sum + (message.tool_calls?.length ?? 0), 0));
    expect(conversation!.byKind['toolResults']!.parts).toBe(toolMessages.length);
    expect(conversation!.byKind['toolResults']!.tokens).toBe(toolTokens.reduce((sum, tokens) => sum + tokens, 0));
    expect(conversation!.largestToolResult!.tokens).toBe(Math.max(...toolTokens));
    const kindSum = Object.values(conversation!.byKind).reduce((sum, kind) => sum + kind.tokens, 0);
    expect(kindSum + conversation!.overheadTokens).toBe(conversation!.totalTokens);
    expect(conversation!.overheadTokens).toBeGreaterThanOrEqual(4 * conversation!.messages);
  });

  it('prints a readable breakdown with the counting rule', async () => {
    const run = await runOllm(['stats', sweAgentFixture]);
    expect(run.code).toBe(0);
    for (const label of ['system', 'user', 'assistant text', 'reasoning', 'tool calls', 'tool results', 'overhead', 'total', 'Largest tool result']) {
      expect(run.stdout).toContain(label);
    }
    expect(run.stdout).toContain('countMessages');
    const json = JSON.parse((await runOllm(['stats', sweAgentFixture, '--json'])).stdout) as StatsJson;
    expect(run.stdout).toContain(json.total.totalTokens.toLocaleString('en-US'));
  });

  it('counts every conversation of a tau-bench file and sums them', async () => {
    const raw = JSON.parse(readFileSync(tauBenchFixture, 'utf8')) as { traj: RawMessage[] }[];
    const run = await runOllm(['stats', tauBenchFixture, '--json']);
    expect(run.code).toBe(0);
    const stats = JSON.parse(run.stdout) as StatsJson;
    expect(stats.conversations).toHaveLength(raw.length);
    const toolCalls = raw.reduce((sum, entry) => sum + entry.traj.reduce((inner, message) => inner + (message.tool_calls?.length ?? 0), 0), 0);
    expect(stats.total.byKind['toolCalls']!.parts).toBe(toolCalls);
    expect(stats.total.totalTokens).toBe(stats.conversations.reduce((sum, conversation) => sum + conversation.totalTokens, 0));
    const human = await runOllm(['stats', tauBenchFixture]);
    expect(human.stdout).toContain(`${raw.length} conversations`);
    expect(human.stdout).toContain('Summed over all conversations');
  });

  it('counts with cl100k_base when asked, giving different totals', async () => {
    const o200k = JSON.parse((await runOllm(['stats', sweAgentFixture, '--json'])).stdout) as StatsJson;
    const cl100k = JSON.parse((await runOllm(['stats', sweAgentFixture, '--json', '--encoding', 'cl100k_base'])).stdout) as StatsJson;
    expect(cl100k.encoding).toBe('cl100k_base');
    expect(cl100k.total.totalTokens).not.toBe(o200k.total.totalTokens);
  });

  it('exits 2 for an unknown encoding', async () => {
    const run = await runOllm(['stats', sweAgentFixture, '--encoding', 'p50k']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('ollm: Unknown encoding "p50k". Encodings: o200k_base, cl100k_base.\n');
  });
});
