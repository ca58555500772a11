import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProviderRegistry } from '@ollm/runtime';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runOllm, temporaryFolder } from './run-ollm.js';
import { testRegistry } from './test-providers.js';

interface ProvidersJson {
  providers: { name: string; package: string; description: string }[];
  warnings: { package: string; path: string; message: string }[];
}

/** A throwaway project whose package.json declares one working and one broken plugin. */
function writeProject(root: string): void {
  const plugin = (name: string, source: string) => {
    const folder = join(root, 'node_modules', name);
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'package.json'),
      JSON.stringify({ name, type: 'module', keywords: ['ollm-context-provider'], exports: { '.': { import: './index.js' } } }),
    );
    writeFileSync(join(folder, 'index.js'), source);
  };
  plugin(
    'ollm-plugin-fake',
    `export default { specificationVersion: 'v1', name: 'fake', description: 'A fake provider', shouldCompress: () => false, compress: async () => { throw new Error('unused'); } };`,
  );
  plugin('ollm-plugin-broken', `throw new Error('boom at import');`);
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'project', dependencies: { 'ollm-plugin-fake': '1.0.0', 'ollm-plugin-broken': '1.0.0' } }));
}

describe('ollm providers', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  beforeEach(() => {
    folder = temporaryFolder();
  });
  afterEach(() => folder.remove());

  it('lists registered providers with their package, as a table and as JSON', async () => {
    const table = await runOllm(['--no-plugins', 'providers'], { registry: testRegistry() });
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^name\s+package\s+description$/);
    expect(table.stdout).toMatch(/placeholder\s+\(test\)\s+Saves each tool result/);
    const json = await runOllm(['--no-plugins', 'providers', '--json'], { registry: testRegistry() });
    const parsed = JSON.parse(json.stdout) as ProvidersJson;
    expect(parsed.providers.map((provider) => provider.name)).toEqual(['identity', 'offline', 'placeholder', 'rule-breaker']);
    expect(parsed.providers[0]).toEqual({ name: 'identity', package: '(test)', description: 'Keeps every message (tests)', usesModel: false });
    expect(parsed.warnings).toEqual([]);
  });

  it('says so when --no-plugins leaves nothing', async () => {
    const run = await runOllm(['--no-plugins', 'providers'], { registry: new ProviderRegistry() });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('No context providers: plugins are off (--no-plugins).\n');
  });

  it('discovers declared plugins; a broken one is one warning line and the rest still load', async () => {
    writeProject(folder.path);
    const run = await runOllm(['providers', '--json'], { cwd: folder.path, registry: new ProviderRegistry() });
    expect(run.code).toBe(0);
    const parsed = JSON.parse(run.stdout) as ProvidersJson;
    expect(parsed.providers).toContainEqual({ name: 'fake', package: 'ollm-plugin-fake', description: 'A fake provider', usesModel: false });
    const broken = parsed.warnings.filter((warning) => warning.package === 'ollm-plugin-broken');
    expect(broken).toHaveLength(1);
    expect(broken[0]!.message).toContain('boom at import');
    const brokenLines = run.stderr.split('\n').filter((line) => line.includes('ollm-plugin-broken'));
    expect(brokenLines).toHaveLength(1);
    expect(brokenLines[0]).toMatch(/^ollm: warning: Plugin "ollm-plugin-broken" \(.+\) failed to load: boom at import/);
  });

  it('loads no plugin with --no-plugins', async () => {
    writeProject(folder.path);
    const run = await runOllm(['--no-plugins', 'providers', '--json'], { cwd: folder.path, registry: new ProviderRegistry() });
    expect(JSON.parse(run.stdout)).toEqual({ providers: [], warnings: [] });
    expect(run.stderr).toBe('');
  });
});
