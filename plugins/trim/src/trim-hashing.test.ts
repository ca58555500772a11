import { createProviderContext, resolveCompressionConfig, runProvider, sha256Hex } from '@ollm/core';
import { describe, expect, it, vi } from 'vitest';
import trim from './index.js';
import { ConversationBuilder, numberedLines } from './test-support/conversation-builder.js';

// The real sha256, watched: how many removed pieces a compaction hashes.
vi.mock('@ollm/core', async (importOriginal) => {
  const core = await importOriginal<typeof import('@ollm/core')>();
  return { ...core, sha256Hex: vi.fn(core.sha256Hex) };
});

describe('trim hashing', () => {
  it('hashes each removed piece once, however often the same conversation is compacted', async () => {
    const context = createProviderContext();
    const builder = new ConversationBuilder().system('You are a coding agent.').user('Fix it.');
    for (let index = 0; index < 6; index++) {
      builder.toolRound(
        `cat > script_${index}.py << 'EOF'\n${numberedLines(300, `step${index}`)}\nEOF\npython script_${index}.py`,
        numberedLines(400, `out${index}`),
      );
    }
    const messages = builder.assistant('Done.').build();
    const config = resolveCompressionConfig({ limit: Math.floor(context.tokens.countMessages(messages) * 0.1) });
    const hashed = vi.mocked(sha256Hex);
    hashed.mockClear();
    const first = await runProvider(trim, messages, config, context);
    // Outputs truncated and calls folded: each piece hashed for its recovery reference.
    expect(new Set(first.removed.map((entry) => entry.kind))).toEqual(new Set(['tool-result', 'tool-call-input']));
    const hashesOfFirst = hashed.mock.calls.length;
    expect(hashesOfFirst).toBeGreaterThanOrEqual(first.removed.length);
    const again = await runProvider(trim, messages, config, context);
    expect(again.removed).toEqual(first.removed);
    expect(again.messages).toEqual(first.messages);
    expect(hashed.mock.calls.length).toBe(hashesOfFirst);
  });
});
