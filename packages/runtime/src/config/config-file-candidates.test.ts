import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolders } from '../test-support/temporary-folders.js';
import { COSMICONFIG_DEFAULT_FILES, META_CONFIG_FILES, PROJECT_CONFIG_FILES, mayHoldProjectConfig, projectFolders } from './config-file-candidates.js';
import { loadConfig } from './load-config.js';

const require = createRequire(import.meta.url);
const cosmiconfigDefaults = require('cosmiconfig/dist/defaults.js') as {
  getDefaultSearchPlaces: (moduleName: string) => string[];
  metaSearchPlaces: string[];
};

const newFolder = temporaryFolders('candidates');
function write(folder: string, file: string, content: string): void {
  mkdirSync(dirname(join(folder, file)), { recursive: true });
  writeFileSync(join(folder, file), content);
}

describe('the config files cosmiconfig could read', () => {
  it('are the places cosmiconfig itself searches, for ollm and for its meta config', () => {
    expect(COSMICONFIG_DEFAULT_FILES).toEqual(cosmiconfigDefaults.getDefaultSearchPlaces('ollm'));
    expect(PROJECT_CONFIG_FILES.slice(0, COSMICONFIG_DEFAULT_FILES.length)).toEqual(COSMICONFIG_DEFAULT_FILES);
    expect(META_CONFIG_FILES).toEqual(cosmiconfigDefaults.metaSearchPlaces);
  });

  it('are none in an empty folder, or beside a package.json with no ollm or cosmiconfig key', () => {
    const folder = newFolder();
    expect(mayHoldProjectConfig(folder, folder)).toBe(false);
    write(folder, 'package.json', JSON.stringify({ name: 'app', scripts: { test: 'x' } }));
    expect(mayHoldProjectConfig(folder, folder)).toBe(false);
  });

  it.each(PROJECT_CONFIG_FILES.filter((file) => file !== 'package.json'))('are there when the folder has %s', (file) => {
    const folder = newFolder();
    write(folder, file, 'contextSize: 4096\n');
    expect(mayHoldProjectConfig(folder, newFolder())).toBe(true);
  });

  it.each(META_CONFIG_FILES.filter((file) => file !== 'package.json'))('are there when the working directory has %s', (file) => {
    const workingDirectory = newFolder();
    write(workingDirectory, file, '{}');
    expect(mayHoldProjectConfig(newFolder(), workingDirectory)).toBe(true);
  });

  it.each([
    ['an ollm key', JSON.stringify({ name: 'app', ollm: { contextSize: 4096 } })],
    ['a cosmiconfig key', JSON.stringify({ name: 'app', cosmiconfig: { searchPlaces: ['x.json'] } })],
    ['JSON that does not parse', '{ "name": '],
    ['JSON that is no object', '[1, 2]'],
  ])('are there when package.json has %s (cosmiconfig reads or reports it)', (_, content) => {
    const folder = newFolder();
    write(folder, 'package.json', content);
    expect(mayHoldProjectConfig(folder, newFolder())).toBe(true);
  });

  it('leave loadConfig reading an ollm key of package.json, and a package.json that does not parse an error', async () => {
    const folder = newFolder();
    write(folder, 'package.json', JSON.stringify({ name: 'app', ollm: { contextSize: 12_288 } }));
    const { config, files } = await loadConfig({ cwd: folder, env: { OLLM_HOME: join(folder, 'home') } });
    expect(config.contextSize).toBe(12_288);
    expect(files).toEqual([join(folder, 'package.json')]);
    const broken = newFolder();
    write(broken, 'package.json', '{ "name": ');
    await expect(loadConfig({ cwd: broken, env: { OLLM_HOME: join(broken, 'home') } })).rejects.toThrow(/package\.json/);
  });
});

describe('a plugin package', () => {
  it('is no config: run in its folder, its ollmPlugin declaration is not read as settings', async () => {
    const folder = newFolder();
    write(folder, 'package.json', JSON.stringify({ name: 'ollm-plugin-stash', keywords: ['ollm-context-provider'], ollmPlugin: { providers: ['stash'] } }));
    expect(mayHoldProjectConfig(folder, folder)).toBe(false);
    const { files } = await loadConfig({ cwd: folder, env: { OLLM_HOME: join(folder, 'home') } });
    expect(files).toEqual([]);
  });
});

describe('a project config found as a person puts it', () => {
  it('reads ollm.config.json, and one in the project root from a subfolder, not past the root', async () => {
    const root = newFolder();
    write(root, 'package.json', JSON.stringify({ name: 'app' }));
    write(root, 'ollm.config.json', JSON.stringify({ contextSize: 12_288 }));
    write(root, 'src/deep/file.ts', '');
    const env = { OLLM_HOME: join(newFolder(), 'home') };
    const fromRoot = await loadConfig({ cwd: root, env });
    expect(fromRoot.config.contextSize).toBe(12_288);
    expect(fromRoot.files).toEqual([join(root, 'ollm.config.json')]);
    const fromSubfolder = await loadConfig({ cwd: join(root, 'src', 'deep'), env });
    expect(fromSubfolder.config.contextSize).toBe(12_288);
    expect(projectFolders(join(root, 'src', 'deep'))).toEqual([join(root, 'src', 'deep'), join(root, 'src'), root]);
    // A project inside it with a package.json of its own stops the search there.
    write(root, 'packages/inner/package.json', JSON.stringify({ name: 'inner' }));
    const inner = await loadConfig({ cwd: join(root, 'packages', 'inner'), env });
    expect(inner.files).toEqual([]);
  });
});
