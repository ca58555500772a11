import { fileURLToPath } from 'node:url';
import { parsePipeline } from '@ollm/core';
import { discoverPlugins, ProviderRegistry, type DiscoveryReport } from '@ollm/runtime';
import type { CliIo } from './cli-io.js';
import { oneLine } from './exit-codes.js';
import { colorsFor } from './output/colors.js';

export interface LoadedProviders {
  readonly registry: ProviderRegistry;
  /** What discovery found; empty with `--no-plugins`. */
  readonly report: DiscoveryReport;
  /** Every provider name on offer: those registered, and those plugins not imported declare. */
  readonly available: ReadonlySet<string>;
}

export interface LoadProvidersOptions {
  readonly io: CliIo;
  /** False with `--no-plugins` (safe mode: nothing is imported from plugin packages). */
  readonly usePlugins: boolean;
  /** A registry to fill; tests pass one holding in-process providers. */
  readonly registry?: ProviderRegistry;
  /**
   * The provider (or pipeline, `mask,code-aware,trim`) the command will run: only the plugins that
   * declare those names are imported (and those that declare none). Unset: every plugin.
   */
  readonly provider?: string;
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
  if (!options.usePlugins) return { registry, report: { loaded: [], warnings: [] }, available: new Set(registry.names()) };
  // A provider the registry already holds (a test's) needs no plugin.
  const wanted = options.provider === undefined ? undefined : parsePipeline(options.provider).names.filter((name) => !registry.has(name));
  const report = await discoverPlugins({
    cwd: options.io.cwd,
    extraManifests: [cliManifest],
    registry,
    ...(wanted !== undefined ? { providers: wanted } : {}),
  });
  const colors = colorsFor(options.io);
  for (const warning of report.warnings) options.io.stderr.write(`ollm: ${colors.yellow('warning:')} ${oneLine(warning.message)}\n`);
  const available = new Set([...registry.names(), ...(report.notLoaded ?? []).flatMap((plugin) => plugin.providers)]);
  return { registry, report, available };
}
