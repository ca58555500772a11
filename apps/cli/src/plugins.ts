import { fileURLToPath } from 'node:url';
import { discoverPlugins, ProviderRegistry, type DiscoveryReport } from '@ollm/runtime';
import type { CliIo } from './cli-io.js';
import { oneLine } from './exit-codes.js';
import { colorsFor } from './output/colors.js';

export interface LoadedProviders {
  readonly registry: ProviderRegistry;
  /** What discovery found; empty with `--no-plugins`. */
  readonly report: DiscoveryReport;
}

export interface LoadProvidersOptions {
  readonly io: CliIo;
  /** False with `--no-plugins` (safe mode: nothing is imported from plugin packages). */
  readonly usePlugins: boolean;
  /** A registry to fill; tests pass one holding in-process providers. */
  readonly registry?: ProviderRegistry;
}

// The CLI's own package.json: its declared plugin dependencies (trim, mask, code-aware) are
// found wherever the user runs `ollm`, not only inside a project that depends on them.
const cliManifest = fileURLToPath(new URL('../package.json', import.meta.url));

/**
 * Fills a provider registry by plugin discovery (declared dependencies and the workspace, never a
 * disk scan). A plugin that fails to load is one warning line on stderr, printed after loading
 * finished; the other plugins still load.
 */
export async function loadProviders(options: LoadProvidersOptions): Promise<LoadedProviders> {
  const registry = options.registry ?? new ProviderRegistry();
  if (!options.usePlugins) return { registry, report: { loaded: [], warnings: [] } };
  const report = await discoverPlugins({ cwd: options.io.cwd, extraManifests: [cliManifest], registry });
  const colors = colorsFor(options.io);
  for (const warning of report.warnings) options.io.stderr.write(`ollm: ${colors.yellow('warning:')} ${oneLine(warning.message)}\n`);
  return { registry, report };
}
