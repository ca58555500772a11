import { createProviderContext, resolveCompressionConfig, runProvider, sha256Hex } from '@ollm/core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import mask from './index.js';
import { bashOutput, buildConversation } from './test-support/build-conversation.js';

// The real sha256, watched: how many outputs a compaction hashes.
vi.mock('@ollm/core', async (importOriginal) => {
  const core = await importOriginal<typeof import('@ollm/core')>();
  return { ...core, sha256Hex: vi.fn(core.sha256Hex) };
});

describe('mask hashing', () => {
  it('hashes each masked output once, however often the same conversation is compacted (with and without a logdir)', async () => {
    const context = createProviderContext();
    const messages = buildConversation(
      Array.from({ length: 14 }, (_, index) => ({ command: `grep -rn handler_${index} /testbed`, output: bashOutput(`area${index}`) })),
    );
    const hashed = vi.mocked(sha256Hex);
    hashed.mockClear();
    const first = await runProvider(mask, messages, resolveCompressionConfig(), context);
    expect(first.removed).toHaveLength(4);
    expect(hashed).toHaveBeenCalledTimes(4);
    const again = await runProvider(mask, messages, resolveCompressionConfig(), context);
    expect(again.removed).toEqual(first.removed);
    expect(hashed).toHaveBeenCalledTimes(4);
    // A logdir names the file in the placeholder: a new plan, the same hash.
    const logdir = mkdtempSync(join(tmpdir(), 'ollm-mask-hashing-'));
    try {
      const saved = await runProvider(mask, messages, resolveCompressionConfig({ logdir }), context);
      expect(saved.removed.map((entry) => entry.sha256)).toEqual(first.removed.map((entry) => entry.sha256));
      expect(hashed).toHaveBeenCalledTimes(4);
    } finally {
      rmSync(logdir, { recursive: true, force: true });
    }
  });
});
