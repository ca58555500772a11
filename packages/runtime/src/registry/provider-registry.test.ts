import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, NoSuchProviderError, buildCompactionResult, compactWith, type ContextProviderV1, type Message } from '@ollm/core';
import { ProviderRegistry, defaultRegistry, getContextProvider, listProviders, registerProvider } from './provider-registry.js';

/** A provider that keeps its input, recording each call. */
function fakeProvider(name: string, _transform: (messages: readonly Message[]) => readonly Message[]): ContextProviderV1 & { calls: (readonly Message[])[] } {
  const calls: (readonly Message[])[] = [];
  return {
    specificationVersion: 'v1',
    name,
    description: `fake provider ${name}`,
    calls,
    shouldCompress: () => true,
    async compress(messages, _config, context) {
      calls.push(messages);
      return buildCompactionResult({ input: messages, output: _transform(messages), tokens: context.tokens, startedAt: performance.now() });
    },
  };
}

const sampleConversation = (): Message[] => [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'list the files' }] },
  { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'src/ and test/ hold the code and its tests.' }] },
];

function caught(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('ProviderRegistry', () => {
  it('registers, lists sorted names and remembers the source package', () => {
    const registry = new ProviderRegistry();
    registry.register(
      fakeProvider('trim', (m) => m),
      '@ollm/plugin-trim',
    );
    registry.register(fakeProvider('mask', (m) => m));
    expect(registry.names()).toEqual(['mask', 'trim']);
    expect(registry.has('trim')).toBe(true);
    expect(registry.list().map((entry) => [entry.provider.name, entry.source])).toEqual([
      ['mask', '(registered)'],
      ['trim', '@ollm/plugin-trim'],
    ]);
  });

  it('get of "a,b" gives a pipeline of a then b', async () => {
    const registry = new ProviderRegistry();
    const a = fakeProvider('a', (m) => m);
    const b = fakeProvider('b', (m) => m);
    registry.register(a);
    registry.register(b);
    expect(registry.get('a')).toBe(a);
    const pipeline = registry.get('a, b');
    expect(pipeline.name).toBe('a,b');
    await compactWith(pipeline, sampleConversation(), { config: { limit: 1 } });
    expect(a.calls).toHaveLength(1);
    expect(b.calls).toHaveLength(1);
  });

  it('raises NoSuchProviderError naming the missing provider and listing the available ones', () => {
    const registry = new ProviderRegistry();
    registry.register(fakeProvider('trim', (m) => m));
    registry.register(fakeProvider('mask', (m) => m));
    for (const request of ['summarize', 'mask,summarize']) {
      const error = caught(() => registry.get(request));
      expect(NoSuchProviderError.isInstance(error)).toBe(true);
      expect((error as NoSuchProviderError).providerName).toBe('summarize');
      expect((error as NoSuchProviderError).available).toEqual(['mask', 'trim']);
      expect((error as Error).message).toContain('mask, trim');
    }
    // A malformed pipeline is bad input of its own kind.
    expect(InvalidArgumentError.isInstance(caught(() => registry.get(' , ')))).toBe(true);
    expect(NoSuchProviderError.isInstance(caught(() => registry.get('')))).toBe(true);
  });

  it('the default registry backs registerProvider, getContextProvider and listProviders', () => {
    const provider = fakeProvider('registry-test-only', (m) => m);
    registerProvider(provider, 'test');
    expect(getContextProvider('registry-test-only')).toBe(provider);
    expect(listProviders()).toContain('registry-test-only');
    expect(defaultRegistry.list().find((entry) => entry.provider === provider)?.source).toBe('test');
  });
});
