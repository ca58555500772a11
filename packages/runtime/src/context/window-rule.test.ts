import { buildCompactionResult, type ContextProviderV1, type Message, RECOVERY_FOLDER } from '@ollm/core';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContextOverflowError } from '../errors/context-overflow-error.js';
import { ProviderRegistry } from '../registry/provider-registry.js';
import { ContextManager } from './context-manager.js';
import { shortenToolResults, temporaryHomes } from './test-support/test-stages.js';

const newHome = temporaryHomes('ollm-window-rule-');

const words = (count: number, seed = 'word') => Array.from({ length: count }, (_, index) => `${seed}${index % 50}`).join(' ');

function managerWith(options: { contextSize: number; stages?: readonly ContextProviderV1[]; logdir?: string; maxToolResultTokens?: number }): ContextManager {
  const registry = new ProviderRegistry();
  for (const stage of options.stages ?? []) registry.register(stage);
  return new ContextManager({
    contextSize: options.contextSize,
    systemPrompt: 'You are careful.',
    registry,
    autoPipeline: (options.stages ?? []).map((stage) => stage.name).join(','),
    ...(options.logdir ? { logdir: options.logdir } : {}),
    ...(options.maxToolResultTokens ? { maxToolResultTokens: options.maxToolResultTokens } : {}),
  });
}

function addToolTurn(manager: ContextManager, index: number, outputWords: number): void {
  const callId = `call-${index}`;
  manager.addMessage({ role: 'user', parts: [{ type: 'text', text: `step ${index}: ${words(20, `u${index}-`)}` }] });
  manager.addMessage({ role: 'assistant', parts: [{ type: 'tool-call', callId, name: 'bash', input: { command: `run ${index}` } }] });
  manager.addMessage({ role: 'tool', parts: [{ type: 'tool-result', callId, output: words(outputWords, `out${index}-`) }] });
  manager.addMessage({ role: 'assistant', parts: [{ type: 'text', text: `done with step ${index}` }] });
}

describe('the window rule: every request fits the window less the reply reserve', () => {
  it('compacts before sending when the pending message would not fit, under the threshold or not', async () => {
    const manager = managerWith({ contextSize: 4_096, stages: [shortenToolResults] });
    const compacted: string[] = [];
    manager.on('compacted', (event) => compacted.push(event.provider));
    for (let index = 0; index < 4; index += 1) addToolTurn(manager, index, 500);
    manager.addMessage({ role: 'user', parts: [{ type: 'text', text: words(1_200, 'paste') }] });
    expect(manager.fitsWindow()).toBe(false);
    const request = await manager.prepareRequest();
    expect(compacted).toEqual(['shorten']);
    expect(request.tokens).toBeLessThanOrEqual(4_096 - 614);
    expect(manager.tokens.countMessages(request.messages)).toBeLessThanOrEqual(request.requestLimit);
    expect(request.maxOutputTokens).toBe(614);
    // The pending paste is sent whole.
    expect(request.messages.at(-1)?.parts[0]).toMatchObject({ type: 'text', text: words(1_200, 'paste') });
  });

  it('falls back to the window guard when no stage is installed, and never folds the message waiting for its reply', async () => {
    const manager = managerWith({ contextSize: 2_048 });
    for (let index = 0; index < 6; index += 1) addToolTurn(manager, index, 150);
    const pending = manager.addMessage({ role: 'user', parts: [{ type: 'text', text: words(700, 'pending') }] });
    const request = await manager.prepareRequest();
    expect(request.tokens).toBeLessThanOrEqual(request.requestLimit);
    expect(request.messages.map((message) => message.id)).toContain(pending.id);
  });

  it('keeps two unanswered user messages (type-ahead) and the turn in progress', async () => {
    const manager = managerWith({ contextSize: 2_048 });
    for (let index = 0; index < 5; index += 1) addToolTurn(manager, index, 200);
    const first = manager.addMessage({ role: 'user', parts: [{ type: 'text', text: words(250, 'first') }] });
    const second = manager.addMessage({ role: 'user', parts: [{ type: 'text', text: words(250, 'second') }] });
    const request = await manager.prepareRequest();
    const ids = request.messages.map((message) => message.id);
    expect(ids).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(request.tokens).toBeLessThanOrEqual(request.requestLimit);
  });

  it('refuses a message that alone cannot fit, naming it, and sends nothing', async () => {
    const manager = managerWith({ contextSize: 2_048, stages: [shortenToolResults] });
    addToolTurn(manager, 0, 100);
    const paste = manager.addMessage({ role: 'user', parts: [{ type: 'text', text: words(3_000, 'huge') }] });
    const error = await manager.prepareRequest().catch((caught: unknown) => caught);
    expect(ContextOverflowError.isInstance(error)).toBe(true);
    const overflow = error as ContextOverflowError;
    expect(overflow.messageId).toBe(paste.id);
    expect(overflow.messageTokens).toBeGreaterThan(overflow.requestLimit);
    expect(overflow.message).toMatch(/the window holds 1,741 \(2,048 less 307 kept for the reply\): the latest message alone is [\d,]+ tokens/);
    expect(manager.removeMessage(paste.id)).toBe(true);
    expect((await manager.prepareRequest()).tokens).toBeLessThanOrEqual(1_741);
  });

  it('refuses such a message before compacting anything: the context it came into is as it was', async () => {
    const manager = managerWith({ contextSize: 4_096, stages: [shortenToolResults] });
    const compacted: string[] = [];
    manager.on('compacted', (event) => compacted.push(event.provider));
    for (let index = 0; index < 3; index += 1) addToolTurn(manager, index, 250);
    const before = manager.state().messages.map((message) => JSON.stringify(message));
    const paste = manager.addMessage({ role: 'user', parts: [{ type: 'text', text: words(6_000, 'huge') }] });
    const error = await manager.prepareRequest().catch((caught: unknown) => caught);
    expect(ContextOverflowError.isInstance(error) && (error as ContextOverflowError).messageId === paste.id).toBe(true);
    expect(compacted).toEqual([]);
    expect(manager.compactionCount).toBe(0);
    expect(manager.removeMessage(paste.id)).toBe(true);
    expect(manager.state().messages.map((message) => JSON.stringify(message))).toEqual(before);
  });

  it('compacts a context restored at 99% of the window before its first send', async () => {
    const manager = managerWith({ contextSize: 4_096, stages: [shortenToolResults] });
    for (let index = 0; index < 7; index += 1) addToolTurn(manager, index, 430);
    const snapshotState = manager.state();
    const restored = managerWith({ contextSize: 4_096, stages: [shortenToolResults] });
    restored.restoreState(snapshotState);
    expect(restored.budget().totalTokens / 4_096).toBeGreaterThan(0.95);
    restored.addMessage({ role: 'user', parts: [{ type: 'text', text: 'and now?' }] });
    const request = await restored.prepareRequest();
    expect(restored.compactionCount).toBe(1);
    expect(request.tokens).toBeLessThanOrEqual(request.requestLimit);
  });

  it('keeps every user message the guard folds as a quote in the system message, and the task in the conversation', async () => {
    const manager = managerWith({ contextSize: 2_048 });
    const folded: string[] = [];
    manager.on('user-messages-folded', (event) => folded.push(...event.messageIds));
    const task = manager.addMessage({ role: 'user', parts: [{ type: 'text', text: 'TASK: make the parser accept negative numbers' }] });
    manager.addMessage({ role: 'assistant', parts: [{ type: 'text', text: 'ok' }] });
    const questions: string[] = [];
    for (let index = 0; index < 30; index += 1) {
      questions.push(manager.addMessage({ role: 'user', parts: [{ type: 'text', text: `question ${index}: ${words(60, `q${index}-`)}` }] }).id);
      await manager.prepareRequest();
      manager.addMessage({ role: 'assistant', parts: [{ type: 'text', text: `answer ${index}` }] });
      await manager.maybeCompact();
      expect(manager.budget().totalTokens).toBeLessThanOrEqual(manager.budget().requestLimit);
      // The task stays first: a strict API (Anthropic, alternating templates) needs a user message there.
      expect(manager.activeMessages[0]!.id).toBe(task.id);
    }
    expect(folded).not.toContain(task.id);
    expect(folded).toContain(questions[0]);
    const system = manager.systemMessage()!.parts[0]!;
    expect(system).toMatchObject({ type: 'text' });
    expect(system.type === 'text' && system.text).toContain('> question 0: q0-0');
    expect(system.type === 'text' && system.text).toMatch(/more folded messages, in the session history/);
    // The quotes are part of the state a snapshot keeps.
    expect(manager.state().foldedQuotes?.[0]).toMatchObject({ messageId: questions[0] });
  });

  it('folds the task only when nothing else is left, and quotes it first', async () => {
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const registry = new ProviderRegistry();
    const manager = new ContextManager({
      contextSize: 2_048,
      systemPrompt: 'You are careful.',
      registry,
      autoPipeline: '',
      clock: () => new Date((clock += 1_000)),
    });
    const folded: string[] = [];
    manager.on('user-messages-folded', (event) => folded.push(...event.messageIds));
    const task = manager.addMessage({ role: 'user', parts: [{ type: 'text', text: `TASK: ${words(500, 'task')}` }] });
    manager.addMessage({ role: 'assistant', parts: [{ type: 'text', text: 'ok' }] });
    const question = manager.addMessage({ role: 'user', parts: [{ type: 'text', text: `question: ${words(300, 'q')}` }] });
    manager.addMessage({ role: 'assistant', parts: [{ type: 'text', text: 'answered' }] });
    // Fits after folding the question alone.
    manager.addMessage({ role: 'user', parts: [{ type: 'text', text: `more: ${words(100, 'm')}` }] });
    await manager.prepareRequest();
    expect(folded).toEqual([question.id]);
    expect(manager.activeMessages[0]!.id).toBe(task.id);
    manager.addMessage({ role: 'assistant', parts: [{ type: 'text', text: 'noted' }] });
    // Now only the task can make room: it is folded, last, and a user message still comes first.
    manager.addMessage({ role: 'user', parts: [{ type: 'text', text: `last: ${words(300, 'l')}` }] });
    const request = await manager.prepareRequest();
    expect(request.tokens).toBeLessThanOrEqual(request.requestLimit);
    expect(folded).toContain(task.id);
    expect(request.messages[1]!.role).toBe('user');
    expect(manager.state().foldedQuotes?.[0]).toMatchObject({ messageId: task.id });
  });

  it('cuts a tool result far over maxToolResultTokens before it is sent, under the threshold, and saves it', async () => {
    const logdir = newHome();
    const manager = managerWith({ contextSize: 32_768, maxToolResultTokens: 200, logdir });
    const truncated: number[] = [];
    manager.on('tool-results-truncated', (event) => truncated.push(...event.results.map((result) => result.tokensBefore)));
    const output = words(2_000, 'log');
    manager.addMessage({ role: 'user', parts: [{ type: 'text', text: 'run the tests' }] });
    manager.addMessage({ role: 'assistant', parts: [{ type: 'tool-call', callId: 'c1', name: 'bash', input: { command: 'pytest' } }] });
    manager.addMessage({ role: 'tool', parts: [{ type: 'tool-result', callId: 'c1', output }] });
    expect(manager.shouldCompact()).toBe(false);
    const request = await manager.prepareRequest();
    const sent = request.messages.at(-1)!.parts[0]!;
    expect(sent.type === 'tool-result' && manager.tokens.countText(sent.output)).toBeLessThanOrEqual(200);
    expect(sent.type === 'tool-result' && sent.output).toMatch(/full output: ollm recover [0-9a-f]{12}\]$/);
    expect(truncated).toHaveLength(1);
    expect(truncated[0]).toBeGreaterThan(400);
    const saved = join(logdir, RECOVERY_FOLDER);
    expect(existsSync(saved)).toBe(true);
    const [file] = (await import('node:fs')).readdirSync(saved);
    expect(readFileSync(join(saved, file!), 'utf8')).toBe(output);
    // A result under twice the limit is left to the compaction stages.
    manager.addMessage({ role: 'assistant', parts: [{ type: 'tool-call', callId: 'c2', name: 'bash', input: { command: 'ls' } }] });
    manager.addMessage({ role: 'tool', parts: [{ type: 'tool-result', callId: 'c2', output: words(150, 'ls') }] });
    await manager.prepareRequest();
    expect(truncated).toHaveLength(1);
  });

  it('with automaticCompaction off, compacts only what a send needs, and never on its own', async () => {
    const registry = new ProviderRegistry();
    registry.register(shortenToolResults);
    const manager = new ContextManager({ contextSize: 4_096, registry, autoPipeline: 'shorten', automaticCompaction: false });
    const skipped: string[] = [];
    manager.on('compaction-skipped', (event) => skipped.push(event.reason));
    for (let index = 0; index < 7; index += 1) addToolTurn(manager, index, 430);
    expect(manager.shouldCompact()).toBe(true);
    expect(await manager.maybeCompact()).toBeUndefined();
    expect(manager.compactionCount).toBe(0);
    expect(skipped).toContain('automatic compaction is off; requests are still kept inside the window');
    manager.addMessage({ role: 'user', parts: [{ type: 'text', text: 'and now?' }] });
    const request = await manager.prepareRequest();
    expect(request.tokens).toBeLessThanOrEqual(request.requestLimit);
    expect(manager.compactionCount).toBe(1);
  });

  it('says when an automatic compaction is not needed', async () => {
    const manager = managerWith({ contextSize: 8_192, stages: [shortenToolResults] });
    const skipped: string[] = [];
    manager.on('compaction-skipped', (event) => skipped.push(event.reason));
    manager.addMessage({ role: 'user', parts: [{ type: 'text', text: 'hello' }] });
    expect(await manager.maybeCompact()).toBeUndefined();
    expect(skipped).toEqual([expect.stringMatching(/^not needed: the conversation holds \d+ tokens, under the trigger of \d+$/)]);
  });

  it('keeps the calibration at or above the exact count, so an under-reporting server cannot switch compaction off', () => {
    const manager = managerWith({ contextSize: 4_096, stages: [shortenToolResults] });
    for (let index = 0; index < 3; index += 1) addToolTurn(manager, index, 600);
    const before = manager.budget().totalTokens;
    const sent: Message[] = manager.messagesForModel();
    manager.recordReportedPromptTokens(10, sent);
    manager.recordReportedPromptTokens(Math.round(manager.tokens.countMessages(sent) * 0.6), sent);
    expect(manager.calibrationRatio).toBe(1);
    expect(manager.budget().totalTokens).toBe(before);
    expect(manager.shouldCompact()).toBe(true);
  });
});
