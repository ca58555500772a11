import { isContextProviderV1, type ContextProviderV1 } from './v1/context-provider-v1.js';
import type { ContextProviderV2 } from './v2/context-provider-v2.js';

/** A provider of either version: hosts (`compactWith`, pipelines, the runtime, discovery) take both. */
export type ContextProvider = ContextProviderV1 | ContextProviderV2;

/** True when `value` looks like a v2 provider. */
export function isContextProviderV2(value: unknown): value is ContextProviderV2 {
  if (value == null || typeof value !== 'object') return false;
  const candidate = value as Partial<ContextProviderV2>;
  return candidate.specificationVersion === 'v2' && typeof candidate.name === 'string' && typeof candidate.compress === 'function';
}

/** True when `value` is a provider of either version (used on what plugins export). */
export function isContextProvider(value: unknown): value is ContextProvider {
  return isContextProviderV1(value) || isContextProviderV2(value);
}

/** Whether the provider calls a model: stage policy comes from this, never from a provider's name. */
export function providerUsesModel(provider: ContextProvider): boolean {
  return provider.usesModel === true;
}
