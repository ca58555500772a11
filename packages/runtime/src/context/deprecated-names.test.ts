/* The names from before "compact" was the one word for the act: each still works (issue 11). */
import type { ContextProviderV1 } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { computeReliability } from '../reliability/reliability.js';
import { ProviderRegistry } from '../registry/provider-registry.js';
import type { ContextState } from '../storage/snapshot-store.js';
import { ContextManager } from './context-manager.js';
import type { CompactionOutcome, CompressionOutcome, CompressOptions } from './context-manager-types.js';
import { shortenToolResults } from './test-support/test-stages.js';

function managerWith(stages: readonly ContextProviderV1[], options: { automaticCompression?: boolean; contextSize?: number } = {}): ContextManager {
  const registry = new ProviderRegistry();
  for (const stage of stages) registry.register(stage);
  return new ContextManager({ contextSize: options.contextSize ?? 3_000, registry, autoPipeline: stages.map((stage) => stage.name).join(','), ...options });
}

/** Tool turns of about 600 tokens each, until the manager is at its trigger. */
function fill(manager: ContextManager): void {
  for (let turn = 0; turn < 40 && !manager.shouldCompact(); turn += 1) {
    const callId = `call-${turn}`;
    manager.addMessage({ role: 'user', parts: [{ type: 'text', text: `Run step ${turn}.` }] });
    manager.addMessage({ role: 'assistant', parts: [{ type: 'tool-call', callId, name: 'bash', input: { command: `step ${turn}` } }] });
    manager.addMessage({ role: 'tool', parts: [{ type: 'tool-result', callId, output: `output ${turn} `.repeat(200) }] });
  }
}

const failing: ContextProviderV1 = {
  ...shortenToolResults,
  name: 'failing',
  async compress() {
    throw new Error('refused');
  },
};

describe('the deprecated compress/compression names', () => {
  it('maybeCompress() is maybeCompact()', async () => {
    const manager = managerWith([shortenToolResults]);
    fill(manager);
    const outcome: CompressionOutcome | undefined = await manager.maybeCompress();
    expect(outcome?.provider).toBe('shorten');
    expect(manager.compactionCount).toBe(1);
  });

  it('compress(name) is compact(name), and takes CompressOptions', async () => {
    const manager = managerWith([shortenToolResults]);
    fill(manager);
    const options: CompressOptions = { abortSignal: new AbortController().signal };
    const outcome: CompactionOutcome = await manager.compress('shorten', options);
    expect(outcome).toMatchObject({ provider: 'shorten', trigger: 'manual' });
    expect(manager.compactionCount).toBe(1);
  });

  it('compressionCount is compactionCount', async () => {
    const manager = managerWith([shortenToolResults]);
    fill(manager);
    await manager.compact('shorten');
    expect(manager.compressionCount).toBe(1);
  });

  it('shouldCompress() is shouldCompact()', () => {
    const manager = managerWith([shortenToolResults]);
    expect(manager.shouldCompress()).toBe(false);
    fill(manager);
    expect(manager.shouldCompress()).toBe(true);
  });

  it("the 'compressed' event still fires, after 'compacted', with the count as compressionCount", async () => {
    const manager = managerWith([shortenToolResults]);
    const heard: string[] = [];
    manager.on('compacted', (event) => heard.push(`compacted ${event.compactionCount}`));
    manager.on('compressed', (event) => heard.push(`compressed ${event.compressionCount} ${event.provider}`));
    fill(manager);
    await manager.maybeCompact();
    expect(heard).toEqual(['compacted 1', 'compressed 1 shorten']);
  });

  it("the 'compression-skipped' event still fires", async () => {
    const manager = managerWith([shortenToolResults]);
    const reasons: string[] = [];
    const stop = manager.on('compression-skipped', (event) => reasons.push(event.reason));
    await manager.maybeCompact();
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/^not needed: /);
    stop();
    await manager.maybeCompact();
    expect(reasons).toHaveLength(1);
  });

  it("the 'compression-error' event still fires", async () => {
    const manager = managerWith([failing, shortenToolResults]);
    const failed: string[] = [];
    manager.on('compression-error', (event) => failed.push(`${event.provider}: ${event.error.message}`));
    fill(manager);
    await manager.maybeCompact();
    expect(failed[0]).toMatch(/^failing: .*refused/);
  });

  it('emitting an old name reaches the listeners of both names', () => {
    const manager = managerWith([]);
    const heard: string[] = [];
    manager.on('compacted', (event) => heard.push(`new ${event.compactionCount}`));
    manager.on('compressed', (event) => heard.push(`old ${event.compressionCount}`));
    const stats = { tokensBefore: 2, tokensAfter: 1, timeMs: 0 };
    manager.events.emit('compressed', { provider: 'x', stages: ['x'], trigger: 'manual', stats, removed: [], limitations: [], compressionCount: 7 });
    expect(heard).toEqual(['new 7', 'old 7']);
  });

  it('the option automaticCompression: false still turns automatic compaction off', async () => {
    const manager = managerWith([shortenToolResults], { automaticCompression: false });
    fill(manager);
    expect(await manager.maybeCompact()).toBeUndefined();
    expect(manager.compactionCount).toBe(0);
  });

  it('a state saved with compressionCount (ollm 0.1) restores its count', () => {
    const manager = managerWith([]);
    const saved: ContextState = { systemPrompt: 'old', messages: [], compressionCount: 3 };
    manager.restoreState(saved);
    expect(manager.compactionCount).toBe(3);
    expect(manager.state()).toMatchObject({ systemPrompt: 'old', compactionCount: 3 });
    expect('compressionCount' in manager.state()).toBe(false);
  });

  it('computeReliability still takes compressionCount', () => {
    expect(computeReliability({ modelSizeBillions: 32, compressionCount: 1 })).toEqual(computeReliability({ modelSizeBillions: 32, compactionCount: 1 }));
  });
});
