import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../errors/invalid-config-error.js';
import { loadConfig } from './load-config.js';

const folders: string[] = [];
function newFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'ollm-config-'));
  folders.push(folder);
  return folder;
}
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('gives the defaults with their sources', async () => {
    const project = newFolder();
    const { config, sources } = await loadConfig({ cwd: project, env: { OLLM_HOME: join(project, 'home') } });
    expect(config.compression).toMatchObject({ enabled: true, preserveRecent: 2048, threshold: 0.8 });
    expect(config.snapshots).toEqual({ enabled: true, autoCreate: true, retain: 20 });
    expect(config.home).toBe(join(project, 'home'));
    expect(sources['compression.threshold']).toBe('default');
    expect(sources.home).toBe('env:OLLM_HOME');
  });

  it('layers user file < project .ollmrc < environment < flags, and says where each value came from', async () => {
    const project = newFolder();
    const home = join(project, 'home');
    mkdirSync(home);
    writeFileSync(join(home, 'config.json'), JSON.stringify({ model: 'user-model', contextSize: 8192, compression: { threshold: 0.7 } }));
    writeFileSync(join(project, '.ollmrc.yaml'), 'contextSize: 32768\ncompression:\n  summaryMaxTokens: 900\n');
    const { config, sources, files } = await loadConfig({
      cwd: project,
      env: { OLLM_HOME: home, OLLM_HOST: 'http://127.0.0.1:9999', OPENAI_API_KEY: 'sk-never-printed' },
      overrides: { model: 'flag-model' },
    });
    expect(config.model).toBe('flag-model');
    expect(config.contextSize).toBe(32768);
    expect(config.compression.threshold).toBe(0.7);
    expect(config.compression.summaryMaxTokens).toBe(900);
    expect(config.host).toBe('http://127.0.0.1:9999');
    expect(config.apiKey).toBe('sk-never-printed');
    expect(sources).toMatchObject({
      model: 'flag',
      contextSize: join(project, '.ollmrc.yaml'),
      'compression.threshold': join(home, 'config.json'),
      host: 'env:OLLM_HOST',
      apiKey: 'env:OPENAI_API_KEY',
    });
    expect(files).toEqual([join(home, 'config.json'), join(project, '.ollmrc.yaml')]);
  });

  it('reads the `ollm` key of package.json', async () => {
    const project = newFolder();
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'x', ollm: { provider: 'trim' } }));
    const { config } = await loadConfig({ cwd: project, env: { OLLM_HOME: join(project, 'home') } });
    expect(config.provider).toBe('trim');
  });

  it('names the file and the key of an invalid value', async () => {
    const project = newFolder();
    writeFileSync(join(project, '.ollmrc.json'), JSON.stringify({ compression: { threshold: 1.5 } }));
    const error = await loadConfig({ cwd: project, env: { OLLM_HOME: join(project, 'home') } }).catch((caught: unknown) => caught);
    expect(InvalidConfigError.isInstance(error)).toBe(true);
    expect((error as InvalidConfigError).file).toBe(join(project, '.ollmrc.json'));
    expect((error as InvalidConfigError).key).toBe('compression.threshold');
    expect((error as Error).message).toContain('.ollmrc.json: compression.threshold:');
  });

  it('leaves compression.replyReserve unset by default, so the runtime derives it from the window', async () => {
    const project = newFolder();
    const { config, sources } = await loadConfig({ cwd: project, env: { OLLM_HOME: join(project, 'home') } });
    expect(config.compression.replyReserve).toBeUndefined();
    expect('replyReserve' in config.compression).toBe(false);
    expect(sources['compression.replyReserve']).toBeUndefined();
  });

  it('accepts compression.replyReserve from a file, and a flag overrides it', async () => {
    const project = newFolder();
    writeFileSync(join(project, '.ollmrc.json'), JSON.stringify({ compression: { replyReserve: 2048, threshold: 0.7 } }));
    const env = { OLLM_HOME: join(project, 'home') };
    const fromFile = await loadConfig({ cwd: project, env });
    expect(fromFile.config.compression.replyReserve).toBe(2048);
    expect(fromFile.sources['compression.replyReserve']).toBe(join(project, '.ollmrc.json'));
    const fromFlag = await loadConfig({ cwd: project, env, overrides: { compression: { replyReserve: 16 } } });
    expect(fromFlag.config.compression.replyReserve).toBe(16);
    expect(fromFlag.sources['compression.replyReserve']).toBe('flag');
    // The rest of the file's compression section is kept beside the flag.
    expect(fromFlag.config.compression.threshold).toBe(0.7);
  });

  it.each([
    ['zero', 0],
    ['below 16', 15],
    ['not an integer', 512.5],
    ['a string', '512'],
  ])('rejects compression.replyReserve when %s, naming the file and the key', async (_name, value) => {
    const project = newFolder();
    writeFileSync(join(project, '.ollmrc.json'), JSON.stringify({ compression: { replyReserve: value } }));
    const error = await loadConfig({ cwd: project, env: { OLLM_HOME: join(project, 'home') } }).catch((caught: unknown) => caught);
    expect(InvalidConfigError.isInstance(error)).toBe(true);
    expect((error as InvalidConfigError).file).toBe(join(project, '.ollmrc.json'));
    expect((error as InvalidConfigError).key).toBe('compression.replyReserve');
    expect((error as Error).message).toContain('.ollmrc.json: compression.replyReserve:');
  });

  it('names an unknown key and a bad environment value', async () => {
    const project = newFolder();
    writeFileSync(join(project, '.ollmrc.json'), JSON.stringify({ compresion: {} }));
    await expect(loadConfig({ cwd: project, env: { OLLM_HOME: join(project, 'home') } })).rejects.toThrowError(/compresion/);
    const clean = newFolder();
    await expect(loadConfig({ cwd: clean, env: { OLLM_HOME: join(clean, 'home'), OLLM_HOST: 'not a url' } })).rejects.toThrowError(/environment: host/);
  });

  it('refuses keys nothing reads (compression.strategy, snapshots.autoThreshold), naming the file and the key', async () => {
    for (const [key, body] of [
      ['compression.strategy', { compression: { strategy: 'banana' } }],
      ['snapshots.autoThreshold', { snapshots: { autoThreshold: 0.8 } }],
    ] as const) {
      const project = newFolder();
      writeFileSync(join(project, '.ollmrc.json'), JSON.stringify(body));
      await expect(loadConfig({ cwd: project, env: { OLLM_HOME: join(project, 'home') } })).rejects.toThrowError(
        new RegExp(`\\.ollmrc\\.json: ${key.replace('.', '\\.')}: Unrecognized key`),
      );
    }
  });
});
