import { type ContextProvider, createPipelineProvider, parsePipeline } from '@ollm/core';
import { NoSuchProviderError } from '@ollm/core';

export interface RegisteredProvider {
  readonly provider: ContextProvider;
  /** The package the provider came from (`(built-in)` or `(registered)` when not from a plugin). */
  readonly source: string;
}

/** Named providers. One default registry backs `registerProvider` and friends; tests make their own. */
export class ProviderRegistry {
  private readonly entries = new Map<string, RegisteredProvider>();

  register(provider: ContextProvider, source = '(registered)'): void {
    this.entries.set(provider.name, { provider, source });
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /**
   * The provider registered as `name`; a comma-separated list (`mask,code-aware,trim`) gives a
   * pipeline of those providers. Unknown names raise `NoSuchProviderError` listing the available.
   */
  get(name: string): ContextProvider {
    const { names } = parsePipeline(name);
    const providers = names.map((single) => {
      const entry = this.entries.get(single);
      if (!entry) throw new NoSuchProviderError({ providerName: single, available: this.names() });
      return entry.provider;
    });
    if (providers.length === 0) throw new NoSuchProviderError({ providerName: name, available: this.names() });
    return providers.length === 1 ? providers[0]! : createPipelineProvider(providers);
  }

  names(): string[] {
    return [...this.entries.keys()].sort();
  }

  list(): RegisteredProvider[] {
    return this.names().map((name) => this.entries.get(name)!);
  }
}

export const defaultRegistry = new ProviderRegistry();

export function registerProvider(provider: ContextProvider, source?: string): void {
  defaultRegistry.register(provider, source);
}

export function getContextProvider(name: string): ContextProvider {
  return defaultRegistry.get(name);
}

export function listProviders(): string[] {
  return defaultRegistry.names();
}
