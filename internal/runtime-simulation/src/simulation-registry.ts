import { ProviderRegistry } from '@ollm/runtime';
import codeAware from '@ollm/plugin-code-aware';
import goalAware from '@ollm/plugin-goal-aware';
import mask from '@ollm/plugin-mask';
import trim from '@ollm/plugin-trim';

/** The automatic policy the simulation runs: cheap rule-based stages first, the model last. */
export const SIMULATION_PIPELINE = 'mask,code-aware,trim,goal-aware';

/** A registry holding the real providers, as the CLI's discovery would register them. */
export function createSimulationRegistry({ withGoalAware = true } = {}): ProviderRegistry {
  const registry = new ProviderRegistry();
  for (const provider of [mask, codeAware, trim]) registry.register(provider);
  if (withGoalAware) registry.register(goalAware);
  return registry;
}
