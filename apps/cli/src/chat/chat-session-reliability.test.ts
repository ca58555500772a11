import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCompactionResult, type ContextProviderV1, type LanguageModel } from '@ollm/core';
import { ContextManager, ProviderRegistry, SessionHistory, SnapshotStore } from '@ollm/runtime';
import { colorsFor } from '../output/colors.js';
import { ChatSession } from './chat-session.js';

/** A rule-based stage: halves assistant texts, with no model call (costs no reliability). */
const halve: ContextProviderV1 = {
  specificationVersion: 'v1',
  name: 'halve',
  description: 'test rule stage',
  shouldCompress: () => true,
  async compress(messages, config, context) {
    const startedAt = performance.now();
    const output = messages.map((message) =>
      message.role !== 'assistant'
        ? message
        : {
            ...message,
            parts: message.parts.map((part) => (part.type === 'text' ? { ...part, text: part.text.slice(0, Math.ceil(part.text.length / 2)) } : part)),
          },
    );
    return buildCompactionResult({ input: messages, output, tokens: context.tokens, startedAt });
  },
};

/** A model stage (as goal-aware or summarize): the same cut, reporting one model call, so it counts as a model summary. */
const summary: ContextProviderV1 = {
  ...halve,
  name: 'summary-test',
  description: 'test model stage',
  async compress(messages, config, context) {
    const result = await halve.compress(messages, config, context);
    return { ...result, stats: { ...result.stats, modelCalls: 1, modelInputTokens: 100, modelOutputTokens: 20 } };
  },
};

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function chatWith(modelName: string): { session: ChatSession; manager: ContextManager; output: () => string } {
  const home = mkdtempSync(join(tmpdir(), 'ollm-chat-reliability-'));
  homes.push(home);
  const registry = new ProviderRegistry();
  registry.register(halve);
  registry.register(summary);
  const sessionId = 'reliability-test';
  const history = new SessionHistory({ home, sessionId, model: modelName, provider: 'summary-test' });
  const snapshots = new SnapshotStore({ home });
  const manager = new ContextManager({ contextSize: 50_000, registry, modelName, history, snapshots, sessionId, automaticCompaction: false });
  let stdout = '';
  const io = { stdout: { write: (chunk: string | Uint8Array) => (stdout += String(chunk)) }, stderr: { write: () => true }, cwd: home, env: {}, isTTY: false };
  const session = new ChatSession({
    io,
    colors: colorsFor(io),
    manager,
    // Never called: these tests compact with the stages above and send no turn.
    model: {} as LanguageModel,
    history,
    snapshots,
    registry,
    sessionId,
    home,
    modelName,
    endpoint: 'http://127.0.0.1:11434',
    provider: 'summary-test',
    autoPipeline: 'summary-test',
    automaticCompaction: false,
    contextFile: join(home, 'active-context.json'),
    secrets: [],
    debug: false,
    goalMarkers: 'apply-when-unset',
  });
  return { session, manager, output: () => stdout };
}

let turn = 0;
function addTurn(manager: ContextManager): void {
  turn += 1;
  manager.addMessage({ role: 'user', parts: [{ type: 'text', text: `Question ${turn}: how should the parser handle retries?` }] });
  manager.addMessage({ role: 'assistant', parts: [{ type: 'text', text: `Answer ${turn}: ${'the retry loop was reviewed again. '.repeat(40)}` }] });
}

const warningCount = (text: string) => text.match(/Context Compression Warning/g)?.length ?? 0;

describe('the chat reliability warning', () => {
  it('warns a 3B model that it has compacted N times once its summaries pass what small models keep well', async () => {
    const { session, manager, output } = chatWith('llama3.2:3b');
    await session.checkReliability();
    expect(output()).toContain('Your model (llama3.2:3b) starts at reliability critical, before any compaction.');
    expect(warningCount(output())).toBe(1);

    const counts: number[] = [];
    for (let count = 1; count <= 4; count += 1) {
      // A rule-based compaction between the summaries counts for nothing.
      addTurn(manager);
      await manager.compact('halve');
      await session.afterChange();
      addTurn(manager);
      await manager.compact('summary-test');
      expect(manager.summaryCount).toBe(count);
      expect(manager.compactionCount).toBe(2 * count);
      // Every turn and command checks; a second check for the same count warns no more.
      await session.afterChange();
      await session.afterChange();
      counts.push(warningCount(output()));
    }
    // Critical from the start: no level drop, yet a warning at 3 summaries (past 2) and at 4 (past 3).
    expect(counts).toEqual([1, 1, 2, 3]);
    expect(output()).toContain('Your model (llama3.2:3b) has compacted 3 times; small models (under 7B) keep 2-3 compactions well.');
    expect(output()).toContain('Your model (llama3.2:3b) has compacted 4 times; small models (under 7B) keep 2-3 compactions well.');
    expect(output()).toContain('Reliability is critical: past 3 compactions, small models may lose context accuracy.');
    expect(output()).toContain('- Start new conversation if seeing hallucinations');
    expect(output()).toContain('Small models (under 7B) keep 2-3 compactions well; past 3, context accuracy may drop.');
  });

  it('keeps the level-drop warning for a medium model and adds its guidance marks', async () => {
    const { session, manager, output } = chatWith('llama3.1:8b');
    await session.checkReliability();
    const shown: number[] = [];
    for (let count = 1; count <= 6; count += 1) {
      addTurn(manager);
      await manager.compact('summary-test');
      const before = warningCount(output());
      await session.checkReliability();
      if (warningCount(output()) > before) shown.push(count);
    }
    // low at the start; critical at 2 (a drop); then past 3 (at 4) and past 5 (at 6).
    expect(output()).toContain('Your model (llama3.1:8b) starts at reliability low, before any compaction.');
    expect(shown).toEqual([2, 4, 6]);
    expect(output()).toContain('Your model (llama3.1:8b) has compacted 6 times; medium models (7B-30B) keep 3-5 compactions well.');
  });
});
