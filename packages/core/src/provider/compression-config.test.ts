import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPRESSION_CONFIG, resolveCompressionConfig } from './compression-config.js';
import { isContextProvider, isContextProviderV2, providerUsesModel } from './context-provider.js';
import { isContextProviderV1 } from './v1/context-provider-v1.js';

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
  const v2 = { specificationVersion: 'v2', name: 'y', usesModel: true, compress: async () => ({ messages: [] }) };
  it('accepts a v2 provider (compress and a name are all it needs) and a v1 provider', () => {
    expect(isContextProviderV2(v2)).toBe(true);
    expect(isContextProvider(v2)).toBe(true);
    expect(isContextProviderV1(provider)).toBe(true);
    expect(isContextProviderV2(provider)).toBe(false);
    expect(isContextProvider({ specificationVersion: 'v3', name: 'z', compress: async () => ({ messages: [] }) })).toBe(false);
    expect(providerUsesModel(v2 as unknown as Parameters<typeof providerUsesModel>[0])).toBe(true);
    expect(providerUsesModel(provider as unknown as Parameters<typeof providerUsesModel>[0])).toBe(false);
  });

  it('rejects look-alikes', () => {
    expect(isContextProvider(provider)).toBe(true);
    expect(isContextProviderV1({ ...provider, specificationVersion: 'v2' })).toBe(false);
    expect(isContextProviderV1({ ...provider, shouldCompress: undefined })).toBe(false);
    expect(isContextProvider({ ...provider, compress: undefined })).toBe(false);
    expect(isContextProvider({ ...provider, name: 3 })).toBe(false);
    expect(isContextProvider(null)).toBe(false);
    expect(isContextProvider(() => provider)).toBe(false);
  });
});
