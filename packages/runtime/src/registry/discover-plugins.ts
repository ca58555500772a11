import { type ContextProvider, isContextProvider } from '@ollm/core';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PluginLoadError } from '@ollm/core';
import { defaultRegistry, type ProviderRegistry } from './provider-registry.js';
import { DEFAULT_IMPORT_CONDITIONS, resolvePackageEntry } from './package-entry.js';
import { listWorkspacePackages } from './workspace-packages.js';

/** The package.json keyword that marks a package as an ollm context provider plugin. */
export const PLUGIN_KEYWORD = 'ollm-context-provider';

export interface DiscoverOptions {
  /** Where to start looking for the nearest package.json. Default: `process.cwd()`. */
  readonly cwd?: string;
  /** More package.json files whose declared dependencies are searched (e.g. the CLI's own). */
  readonly extraManifests?: readonly string[];
  readonly registry?: ProviderRegistry;
  /**
   * Extra package.json `exports` conditions to prefer when loading a plugin, e.g.
   * `['ollm-source']` under vitest to load workspace plugins from their TypeScript sources.
   */
  readonly conditions?: readonly string[];
  /**
   * The provider names the caller will use (`['trim']`, or a pipeline's names). A plugin whose
   * package.json declares its providers (`"ollmPlugin": { "providers": ["trim"] }`) is then imported only
   * when it declares one of them; a plugin that declares none is always imported. When a name is
   * still missing after that, every plugin is imported (so an unknown name lists all there are).
   * Unset: every plugin is imported.
   */
  readonly providers?: readonly string[];
}

export interface DiscoveredPlugin {
  readonly packageName: string;
  readonly path: string;
  readonly providers: readonly string[];
}

export interface DiscoveryReport {
  readonly loaded: readonly DiscoveredPlugin[];
  readonly warnings: readonly PluginLoadError[];
  /** Plugins not imported because they declare none of the `providers` asked for, with the names they declare. */
  readonly notLoaded?: readonly DiscoveredPlugin[];
}

interface Candidate {
  readonly packageName: string;
  readonly manifestPath: string;
}

interface Plugin extends Candidate {
  readonly manifest: Manifest;
  /** What its package.json declares under `ollmPlugin.providers`, when it declares a list of names. */
  readonly declared: readonly string[] | undefined;
}

/**
 * Finds plugins among the declared dependencies of the nearest package.json (and of
 * `extraManifests`) and among the packages of the enclosing pnpm/npm workspace — never by scanning
 * the disk. A package is a plugin when its package.json lists the keyword `ollm-context-provider`.
 * Its default export (a provider, an array of providers, or a factory returning either) is
 * registered. A plugin that fails to load becomes a `PluginLoadError` warning; loading goes on.
 */
export async function discoverPlugins(options: DiscoverOptions = {}): Promise<DiscoveryReport> {
  const registry = options.registry ?? defaultRegistry;
  const conditions = [...(options.conditions ?? []), ...DEFAULT_IMPORT_CONDITIONS];
  const candidates = new Map<string, Candidate>();
  const manifests = [findNearestManifest(resolve(options.cwd ?? process.cwd())), ...(options.extraManifests ?? [])];
  for (const manifest of manifests) {
    if (!manifest) continue;
    for (const candidate of declaredDependencies(manifest)) candidates.set(candidate.packageName, candidate);
    for (const candidate of listWorkspacePackages(dirname(manifest))) {
      if (!candidates.has(candidate.packageName)) candidates.set(candidate.packageName, candidate);
    }
  }

  const plugins: Plugin[] = [];
  for (const candidate of candidates.values()) {
    const manifest = readManifest(candidate.manifestPath);
    if (!manifest || !Array.isArray(manifest.keywords) || !manifest.keywords.includes(PLUGIN_KEYWORD)) continue;
    plugins.push({ ...candidate, manifest, declared: declaredProviders(manifest) });
  }

  const loaded: DiscoveredPlugin[] = [];
  const warnings: PluginLoadError[] = [];
  // Two plugins offering one provider name: the first found (declared dependencies before the
  // workspace) keeps it, and the other is a warning rather than a silent replacement.
  const claimedBy = new Map<string, string>();
  const load = async (plugin: Plugin): Promise<void> => {
    const path = dirname(plugin.manifestPath);
    try {
      const providers = await loadPlugin(plugin.manifestPath, plugin.manifest, conditions);
      const registered: string[] = [];
      for (const provider of providers) {
        const owner = claimedBy.get(provider.name);
        if (owner !== undefined) {
          warnings.push(
            new PluginLoadError({
              packageName: plugin.packageName,
              path,
              cause: new Error(`provider "${provider.name}" is already provided by ${owner}; keeping ${owner}'s`),
            }),
          );
          continue;
        }
        claimedBy.set(provider.name, plugin.packageName);
        registry.register(provider, plugin.packageName);
        registered.push(provider.name);
      }
      const missing = (plugin.declared ?? []).filter((name) => !providers.some((provider) => provider.name === name));
      if (missing.length > 0) {
        warnings.push(
          new PluginLoadError({
            packageName: plugin.packageName,
            path,
            cause: new Error(
              `its package.json declares ${missing.map((name) => `"${name}"`).join(', ')} under ollmPlugin.providers, which it does not provide`,
            ),
          }),
        );
      }
      if (registered.length > 0) loaded.push({ packageName: plugin.packageName, path, providers: registered });
    } catch (cause) {
      warnings.push(new PluginLoadError({ packageName: plugin.packageName, path, cause }));
    }
  };

  const wanted = options.providers === undefined ? undefined : new Set(options.providers);
  // In discovery order, so the first plugin found keeps a name either way.
  const first = plugins.filter((plugin) => wanted === undefined || plugin.declared === undefined || plugin.declared.some((name) => wanted.has(name)));
  for (const plugin of first) await load(plugin);
  let rest = plugins.filter((plugin) => !first.includes(plugin));
  if (wanted !== undefined && [...wanted].some((name) => !registry.has(name))) {
    for (const plugin of rest) await load(plugin);
    rest = [];
  }
  const notLoaded = rest.map((plugin) => ({ packageName: plugin.packageName, path: dirname(plugin.manifestPath), providers: plugin.declared ?? [] }));
  return { loaded, warnings, ...(notLoaded.length > 0 ? { notLoaded } : {}) };
}

/** The provider names a plugin's package.json declares (`"ollmPlugin": { "providers": [...] }`), when it declares a list of strings. */
function declaredProviders(manifest: Manifest): readonly string[] | undefined {
  const declared = (manifest.ollmPlugin as { providers?: unknown } | undefined)?.providers;
  return Array.isArray(declared) && declared.every((name) => typeof name === 'string') ? declared : undefined;
}

export function findNearestManifest(start: string): string | undefined {
  let folder = start;
  for (;;) {
    const candidate = join(folder, 'package.json');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

interface Manifest {
  name?: string;
  exports?: unknown;
  main?: unknown;
  keywords?: unknown;
  ollmPlugin?: unknown;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

function readManifest(path: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

function declaredDependencies(manifestPath: string): Candidate[] {
  const manifest = readManifest(manifestPath);
  if (!manifest) return [];
  const names = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.devDependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
  ]);
  const require = createRequire(manifestPath);
  const candidates: Candidate[] = [];
  for (const packageName of names) {
    const path = resolvePackageManifest(require, packageName, dirname(manifestPath));
    if (path) candidates.push({ packageName, manifestPath: path });
  }
  return candidates;
}

/**
 * `<name>/package.json` as installed for a folder: the nearest `node_modules/<name>` up from it
 * (where node looks first), its real path, so a workspace package linked into node_modules is
 * one candidate; else node's own resolution (NODE_PATH, global folders). Looking on disk first
 * skips what a `require.resolve` costs for a package whose exports hide its package.json (an
 * error built and thrown): most of discovery's time with a few dozen dependencies.
 */
function resolvePackageManifest(require: NodeRequire, packageName: string, from: string): string | undefined {
  for (let folder = from; ;) {
    const candidate = join(folder, 'node_modules', packageName, 'package.json');
    if (existsSync(candidate)) return realpathSync.native(candidate);
    const parent = dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  try {
    return require.resolve(`${packageName}/package.json`);
  } catch {
    return undefined;
  }
}

async function loadPlugin(manifestPath: string, manifest: Manifest, conditions: readonly string[]): Promise<ContextProvider[]> {
  const entry = resolvePackageEntry(manifestPath, manifest, conditions);
  const module = (await import(pathToFileURL(entry).href)) as { default?: unknown };
  let exported = module.default;
  if (typeof exported === 'function') exported = await (exported as () => unknown)();
  const providers = Array.isArray(exported) ? exported : [exported];
  if (providers.length === 0 || !providers.every(isContextProvider)) {
    throw new Error(
      'its default export is not a ContextProvider (specificationVersion "v2" with name and compress, or "v1" with name, shouldCompress and compress), an array of them, or a factory returning one',
    );
  }
  return providers as ContextProvider[];
}
