import { discoverPlugins, ProviderRegistry } from '@ollm/runtime';
import { REPOSITORY_ROOT } from '../fixture-set.js';
import { createBenchRegistry, langChainStrategy, ollmStrategy, type Strategy } from '../strategies.js';
import { namesListStrategy, recencyStrategy } from './baselines.js';
import { aiSdkLadderStrategy } from './peer-ladder.js';

/** The peers and baselines, by the names `--strategy` takes; any other name is an ollm pipeline. */
export const PEER_STRATEGIES: Readonly<Record<string, () => Strategy>> = {
  'ai-sdk': () => aiSdkLadderStrategy,
  // Baselines (baselines.ts): the newest steps that fit; and that in half the budget plus a list of the names it dropped.
  recency: () => recencyStrategy,
  'names-list': () => namesListStrategy,
  // startOn human/ai: a SWE-agent trajectory has one human message (the task), so `human` alone
  // can only keep everything or nothing; `langchain-human` is LangChain's documented setting.
  langchain: () => langChainStrategy('human-or-ai'),
  'langchain-human': () => langChainStrategy('human'),
};

function stagesOf(name: string): string[] {
  return name.split(',').map((stage) => stage.trim());
}

/**
 * A strategy by name: `ai-sdk`, `langchain`, `langchain-human`, `recency`, `names-list`, or any ollm pipeline of the
 * providers in `registry` (`mask,code-aware,trim`). An unknown provider throws NoSuchProviderError.
 */
export function resolveStrategy(name: string, registry: ProviderRegistry = createBenchRegistry()): Strategy {
  const peer = PEER_STRATEGIES[name.trim()];
  if (peer) return peer();
  return ollmStrategy(stagesOf(name).join(','), registry);
}

export interface ResolvedStrategies {
  readonly strategies: Strategy[];
  /** Plugins of the workspace that failed to load while looking for a provider (one line each). */
  readonly warnings: readonly string[];
}

/**
 * The strategies for `names`. The providers the bench depends on are registered as they are;
 * when a pipeline names another one (a plugin being written in plugins/, say `fold`), the
 * workspace's plugins are discovered as the CLI does (packages with the keyword
 * `ollm-context-provider`, loaded from their built `dist/`) and the names still missing are
 * registered from them.
 */
export async function resolveStrategies(names: readonly string[]): Promise<ResolvedStrategies> {
  const registry = createBenchRegistry();
  const wanted = names.filter((name) => PEER_STRATEGIES[name.trim()] === undefined).flatMap(stagesOf);
  const warnings: string[] = [];
  if (wanted.some((stage) => stage !== '' && !registry.has(stage))) {
    const discovered = new ProviderRegistry();
    const report = await discoverPlugins({ cwd: REPOSITORY_ROOT, registry: discovered });
    for (const { provider, source } of discovered.list()) if (!registry.has(provider.name)) registry.register(provider, source);
    warnings.push(...report.warnings.map((warning) => warning.message.split('\n')[0]!));
  }
  return { strategies: names.map((name) => resolveStrategy(name, registry)), warnings };
}
