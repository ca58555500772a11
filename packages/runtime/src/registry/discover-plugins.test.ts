import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PluginLoadError } from '@ollm/core';
import { PLUGIN_KEYWORD, discoverPlugins, findNearestManifest } from './discover-plugins.js';
import { ProviderRegistry } from './provider-registry.js';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** The source of an ESM module whose default export is a working v1 provider. */
function providerModule(name: string): string {
  return `export default {
  specificationVersion: 'v1',
  name: ${JSON.stringify(name)},
  description: 'test provider',
  shouldCompress: () => false,
  compress: async (messages) => ({ messages, sourceDigest: '', coveredThrough: messages.length - 1, removed: [], limitations: [], stats: { tokensBefore: 0, tokensAfter: 0, timeMs: 0 } }),
};
`;
}

interface FakePackage {
  readonly name: string;
  readonly keywords?: string[];
  /** Module source of the entry file. */
  readonly source: string;
  /** How the entry is declared: an ESM `exports` map (default), `main`, or nothing (index.js). */
  readonly entry?: 'exports' | 'main' | 'index';
  /** What its package.json declares under `ollmPlugin.providers`. */
  readonly declares?: string[];
}

/** Writes `<folder>/package.json` and the package's entry module. */
function writePackage(folder: string, fake: FakePackage): void {
  const entry = fake.entry ?? 'exports';
  const file = entry === 'index' ? 'index.js' : 'dist/index.js';
  writeJson(join(folder, 'package.json'), {
    name: fake.name,
    version: '1.0.0',
    type: 'module',
    ...(fake.keywords ? { keywords: fake.keywords } : {}),
    ...(fake.declares ? { ollmPlugin: { providers: fake.declares } } : {}),
    ...(entry === 'exports' ? { exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' }, './package.json': './package.json' } } : {}),
    ...(entry === 'main' ? { main: './dist/index.js' } : {}),
  });
  mkdirSync(dirname(join(folder, file)), { recursive: true });
  writeFileSync(join(folder, file), fake.source);
}

/** A throwaway project: package.json declaring `declared`, and node_modules holding `installed`. */
function project(declared: string[], installed: FakePackage[]): string {
  const root = mkdtempSync(join(tmpdir(), 'ollm-discovery-'));
  folders.push(root);
  writeJson(join(root, 'package.json'), {
    name: 'app',
    private: true,
    dependencies: Object.fromEntries(declared.map((name) => [name, '1.0.0'])),
  });
  for (const fake of installed) writePackage(join(root, 'node_modules', fake.name), fake);
  return root;
}

describe('discoverPlugins in a throwaway project', () => {
  it('imports only the plugins that declare a provider asked for, and those that declare none', async () => {
    // An entry that throws when imported: a warning would show it was imported.
    const explodes = "throw new Error('imported');\n";
    const root = project(
      ['ollm-wanted', 'ollm-other', 'ollm-undeclared'],
      [
        { name: 'ollm-wanted', keywords: [PLUGIN_KEYWORD], declares: ['wanted'], source: providerModule('wanted') },
        { name: 'ollm-other', keywords: [PLUGIN_KEYWORD], declares: ['other'], source: explodes },
        { name: 'ollm-undeclared', keywords: [PLUGIN_KEYWORD], source: providerModule('undeclared') },
      ],
    );
    const registry = new ProviderRegistry();
    const report = await discoverPlugins({ cwd: root, registry, providers: ['wanted'] });
    expect(report.warnings).toEqual([]);
    expect(registry.names()).toEqual(['undeclared', 'wanted']);
    expect(report.notLoaded).toEqual([{ packageName: 'ollm-other', path: join(root, 'node_modules', 'ollm-other'), providers: ['other'] }]);

    // Without the list, every plugin is imported (and the broken one is a warning).
    const everything = await discoverPlugins({ cwd: root, registry: new ProviderRegistry() });
    expect(everything.warnings.map((warning) => warning.packageName)).toEqual(['ollm-other']);
    expect(everything.notLoaded).toBeUndefined();
  });

  it('imports every plugin when a name asked for is declared by none, and warns about a declaration a plugin does not keep', async () => {
    const root = project(
      ['ollm-declares-a', 'ollm-declares-b'],
      [
        { name: 'ollm-declares-a', keywords: [PLUGIN_KEYWORD], declares: ['a'], source: providerModule('a') },
        // Declares "b" but provides "hidden": found only by importing everything.
        { name: 'ollm-declares-b', keywords: [PLUGIN_KEYWORD], declares: ['b'], source: providerModule('hidden') },
      ],
    );
    const registry = new ProviderRegistry();
    const report = await discoverPlugins({ cwd: root, registry, providers: ['hidden'] });
    expect(registry.names()).toEqual(['a', 'hidden']);
    expect(report.notLoaded).toBeUndefined();
    expect(report.warnings).toHaveLength(1);
    expect(report.warnings[0]!.packageName).toBe('ollm-declares-b');
    expect(report.warnings[0]!.message).toContain('declares "b" under ollmPlugin.providers, which it does not provide');
  });

  it('registers a declared plugin with the keyword under its package name', async () => {
    const root = project(
      ['ollm-plugin-alpha', '@acme/ollm-beta'],
      [
        { name: 'ollm-plugin-alpha', keywords: [PLUGIN_KEYWORD], source: providerModule('alpha') },
        { name: '@acme/ollm-beta', keywords: ['other', PLUGIN_KEYWORD], source: providerModule('beta'), entry: 'main' },
      ],
    );
    const registry = new ProviderRegistry();
    const report = await discoverPlugins({ cwd: root, registry });
    expect(report.warnings).toEqual([]);
    expect(report.loaded.map((plugin) => plugin.packageName).sort()).toEqual(['@acme/ollm-beta', 'ollm-plugin-alpha']);
    expect(registry.names()).toEqual(['alpha', 'beta']);
    expect(registry.list().find((entry) => entry.provider.name === 'alpha')?.source).toBe('ollm-plugin-alpha');
    expect(report.loaded.find((plugin) => plugin.packageName === '@acme/ollm-beta')?.providers).toEqual(['beta']);
  });

  it('keeps the first plugin that provides a name and warns about the second, naming both', async () => {
    const root = project(
      ['ollm-first', 'ollm-second'],
      [
        { name: 'ollm-first', keywords: [PLUGIN_KEYWORD], source: providerModule('shared-name') },
        { name: 'ollm-second', keywords: [PLUGIN_KEYWORD], source: providerModule('shared-name') },
      ],
    );
    const registry = new ProviderRegistry();
    const report = await discoverPlugins({ cwd: root, registry });
    expect(registry.list().find((entry) => entry.provider.name === 'shared-name')?.source).toBe('ollm-first');
    expect(report.loaded.map((plugin) => plugin.packageName)).toEqual(['ollm-first']);
    expect(report.warnings).toHaveLength(1);
    expect(report.warnings[0]!.packageName).toBe('ollm-second');
    expect(report.warnings[0]!.message).toContain('provider "shared-name" is already provided by ollm-first');
  });

  it('finds the nearest package.json from a subfolder', async () => {
    const root = project(['ollm-plugin-alpha'], [{ name: 'ollm-plugin-alpha', keywords: [PLUGIN_KEYWORD], source: providerModule('alpha'), entry: 'index' }]);
    mkdirSync(join(root, 'src', 'deep'), { recursive: true });
    expect(findNearestManifest(join(root, 'src', 'deep'))).toBe(join(root, 'package.json'));
    const registry = new ProviderRegistry();
    await discoverPlugins({ cwd: join(root, 'src', 'deep'), registry });
    expect(registry.names()).toEqual(['alpha']);
  });

  it('does not load a package with the keyword that is not declared, nor a declared one without it', async () => {
    const root = project(
      ['plain-library'],
      [
        { name: 'ollm-plugin-stowaway', keywords: [PLUGIN_KEYWORD], source: `throw new Error('must never be imported');` },
        { name: 'plain-library', keywords: ['utility'], source: `throw new Error('must never be imported either');` },
      ],
    );
    const registry = new ProviderRegistry();
    const report = await discoverPlugins({ cwd: root, registry });
    expect(report).toEqual({ loaded: [], warnings: [] });
    expect(registry.names()).toEqual([]);
  });

  it('turns a plugin whose import throws into a warning naming package, path and cause; the others still load', async () => {
    const root = project(
      ['ollm-plugin-broken', 'ollm-plugin-good'],
      [
        { name: 'ollm-plugin-broken', keywords: [PLUGIN_KEYWORD], source: `throw new Error('missing native binding');` },
        { name: 'ollm-plugin-good', keywords: [PLUGIN_KEYWORD], source: providerModule('good') },
      ],
    );
    const registry = new ProviderRegistry();
    const report = await discoverPlugins({ cwd: root, registry });
    expect(registry.names()).toEqual(['good']);
    expect(report.warnings).toHaveLength(1);
    const [warning] = report.warnings;
    expect(PluginLoadError.isInstance(warning)).toBe(true);
    expect(warning!.packageName).toBe('ollm-plugin-broken');
    expect(warning!.path).toBe(join(root, 'node_modules', 'ollm-plugin-broken'));
    expect(warning!.message).toContain('ollm-plugin-broken');
    expect(warning!.message).toContain(join(root, 'node_modules', 'ollm-plugin-broken'));
    expect(warning!.message).toContain('missing native binding');
  });

  it('warns when the default export is not a provider', async () => {
    const root = project(
      ['ollm-plugin-odd', 'ollm-plugin-none'],
      [
        { name: 'ollm-plugin-odd', keywords: [PLUGIN_KEYWORD], source: `export default { name: 'odd' };` },
        { name: 'ollm-plugin-none', keywords: [PLUGIN_KEYWORD], source: `export const provider = 1;` },
      ],
    );
    const registry = new ProviderRegistry();
    const report = await discoverPlugins({ cwd: root, registry });
    expect(report.loaded).toEqual([]);
    expect(report.warnings.map((warning) => warning.packageName).sort()).toEqual(['ollm-plugin-none', 'ollm-plugin-odd']);
    for (const warning of report.warnings) expect(warning.message).toMatch(/not a ContextProvider/);
  });

  it('accepts an array of providers and a factory as default export', async () => {
    const root = project(
      ['ollm-plugin-pair', 'ollm-plugin-factory'],
      [
        {
          name: 'ollm-plugin-pair',
          keywords: [PLUGIN_KEYWORD],
          source: `${providerModule('one').replace('export default', 'const one =')}\nexport default [one, { ...one, name: 'two' }];`,
        },
        {
          name: 'ollm-plugin-factory',
          keywords: [PLUGIN_KEYWORD],
          source: `${providerModule('made').replace('export default', 'const made =')}\nexport default async () => made;`,
        },
      ],
    );
    const registry = new ProviderRegistry();
    await discoverPlugins({ cwd: root, registry });
    expect(registry.names()).toEqual(['made', 'one', 'two']);
  });

  it('finds the packages a pnpm-workspace.yaml lists', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ollm-workspace-'));
    folders.push(root);
    writeJson(join(root, 'package.json'), { name: 'monorepo', private: true });
    writeFileSync(join(root, 'pnpm-workspace.yaml'), "packages:\n  - 'plugins/*'\n  - tools/single # a comment\n\nother: value\n");
    writePackage(join(root, 'plugins', 'first'), { name: '@mono/plugin-first', keywords: [PLUGIN_KEYWORD], source: providerModule('first') });
    writePackage(join(root, 'plugins', 'library'), { name: '@mono/library', source: `throw new Error('not a plugin');` });
    writePackage(join(root, 'tools', 'single'), { name: '@mono/single', keywords: [PLUGIN_KEYWORD], source: providerModule('single') });
    writePackage(join(root, 'unlisted'), { name: '@mono/unlisted', keywords: [PLUGIN_KEYWORD], source: providerModule('unlisted') });
    const registry = new ProviderRegistry();
    const report = await discoverPlugins({ cwd: join(root, 'plugins', 'first'), registry });
    expect(report.warnings).toEqual([]);
    expect(registry.names()).toEqual(['first', 'single']);
  });
});

/** A plugin package being written right now may have a half-saved package.json: skip it. */
function readManifest(path: string): { name: string; keywords?: unknown[]; ollmPlugin?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as { name: string; keywords?: unknown[]; ollmPlugin?: unknown };
  } catch {
    return undefined;
  }
}

describe('discoverPlugins in this repository', () => {
  it('finds every @ollm/plugin-* package that exists on disk', async () => {
    const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
    const pluginsFolder = join(repositoryRoot, 'plugins');
    const onDisk = (existsSync(pluginsFolder) ? readdirSync(pluginsFolder) : [])
      .map((folder) => join(pluginsFolder, folder, 'package.json'))
      .filter((path) => existsSync(path))
      .map((path) => readManifest(path))
      .filter((manifest) => Array.isArray(manifest?.keywords) && manifest.keywords.includes(PLUGIN_KEYWORD))
      .map((manifest) => manifest!.name);
    const registry = new ProviderRegistry();
    // Load workspace plugins from their TypeScript sources, as the rest of the test suite does.
    const report = await discoverPlugins({ cwd: repositoryRoot, registry, conditions: ['ollm-source'] });
    const found = new Set([...report.loaded.map((plugin) => plugin.packageName), ...report.warnings.map((warning) => warning.packageName)]);
    for (const name of onDisk) expect(found.has(name), `${name} was not found`).toBe(true);
    // A plugin still being written may fail to load; it must then be a warning, never a crash.
    for (const plugin of report.loaded) expect(plugin.providers.length).toBeGreaterThan(0);
    // Every shipped plugin declares what it provides, so a command imports only the one it runs.
    for (const plugin of report.loaded.filter((loaded) => loaded.packageName.startsWith('@ollm/plugin-'))) {
      expect(readManifest(join(plugin.path, 'package.json'))?.ollmPlugin, plugin.packageName).toEqual({ providers: plugin.providers });
    }
  });
});
