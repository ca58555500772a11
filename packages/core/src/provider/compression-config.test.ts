import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPRESSION_CONFIG, resolveCompressionConfig } from './compression-config.js';
import { isContextProvider } from './v1/context-provider-v1.js';

describe('resolveCompressionConfig', () => {
  it('fills gptme defaults and keeps what the caller set', () => {
    expect(DEFAULT_COMPRESSION_CONFIG).toEqual({ maxToolResultTokens: 2000, reasoningStripAgeThreshold: 5 });
    expect(resolveCompressionConfig()).toEqual({ maxToolResultTokens: 2000, reasoningStripAgeThreshold: 5 });
    expect(resolveCompressionConfig({ limit: 8000, maxToolResultTokens: 500, logdir: '/tmp/x' })).toEqual({
      limit: 8000,
      maxToolResultTokens: 500,
      reasoningStripAgeThreshold: 5,
      logdir: '/tmp/x',
    });
  });

  it('treats an explicit undefined as "use the default" and does not mutate the defaults', () => {
    const resolved = resolveCompressionConfig({ maxToolResultTokens: undefined as unknown as number, limit: undefined });
    expect(resolved.maxToolResultTokens).toBe(2000);
    expect('limit' in resolved).toBe(false);
    expect(DEFAULT_COMPRESSION_CONFIG).toEqual({ maxToolResultTokens: 2000, reasoningStripAgeThreshold: 5 });
  });
});

describe('isContextProvider', () => {
  const provider = { specificationVersion: 'v1', name: 'x', description: '', shouldCompress: () => false, compress: async () => undefined };
  it('accepts a v1 provider and rejects look-alikes', () => {
    expect(isContextProvider(provider)).toBe(true);
    expect(isContextProvider({ ...provider, specificationVersion: 'v2' })).toBe(false);
    expect(isContextProvider({ ...provider, compress: undefined })).toBe(false);
    expect(isContextProvider({ ...provider, name: 3 })).toBe(false);
    expect(isContextProvider(null)).toBe(false);
    expect(isContextProvider(() => provider)).toBe(false);
  });
});
