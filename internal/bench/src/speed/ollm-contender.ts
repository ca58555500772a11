import { compactWith, createPipelineProvider, parsePipeline, type ContextProvider, type TokenCounter } from '@ollm/core';
import { freshCounter, warmCounter, type SpeedContender } from './speed-contender.js';

/** The workspace package of each provider the bench can time (each is the package's default export). */
const PROVIDER_PACKAGES: Readonly<Record<string, string>> = {
  fold: '@ollm/plugin-fold',
  trim: '@ollm/plugin-trim',
  mask: '@ollm/plugin-mask',
  'code-aware': '@ollm/plugin-code-aware',
};

/**
 * The provider or pipeline `name` (`trim`, `mask,code-aware,trim`) as `ProviderRegistry.get` builds
 * it, importing only the packages it names (a cold process loads what it uses and nothing else).
 */
export async function loadOllmProvider(name: string): Promise<ContextProvider> {
  const { names } = parsePipeline(name);
  const providers = await Promise.all(
    names.map(async (single) => {
      const specifier = PROVIDER_PACKAGES[single];
      if (!specifier) throw new Error(`The speed bench has no provider "${single}" (it times ${Object.keys(PROVIDER_PACKAGES).join(', ')}).`);
      return ((await import(specifier)) as { default: ContextProvider }).default;
    }),
  );
  if (providers.length === 0) throw new Error(`No provider named in "${name}".`);
  return providers.length === 1 ? providers[0]! : createPipelineProvider(providers);
}

/** Any ollm pipeline through `compactWith` (host validation and source digest included). */
export function ollmContender(name: string, provider: ContextProvider): SpeedContender {
  return {
    name,
    label: name === 'fold' ? 'fold (the default of ollm compact)' : name,
    family: 'ollm',
    modes: ['warm', 'fresh'],
    prepare(messages, limit) {
      // One counter for every warm run, as a live session keeps one: ollm's caches that live on it stay warm.
      let warm: TokenCounter | undefined;
      return {
        arm(mode) {
          const tokens = mode === 'warm' ? (warm ??= warmCounter(messages)) : freshCounter();
          return () => compactWith(provider, messages, { config: { limit }, context: { tokens } });
        },
      };
    },
  };
}

export async function loadOllmContender(name: string): Promise<SpeedContender> {
  return ollmContender(name, await loadOllmProvider(name));
}
