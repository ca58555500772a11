import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { forgetRegisteredSecrets, redactSecrets, registeredSecrets } from '@ollm/core';
import { afterEach, describe, expect, it } from 'vitest';
import { temporaryFolders } from '../test-support/temporary-folders.js';
import { InvalidConfigError } from '../errors/invalid-config-error.js';
import { loadConfig } from './load-config.js';

const newFolder = temporaryFolders('config');
afterEach(() => {
  forgetRegisteredSecrets();
});

describe('loadConfig', () => {
  it('gives the defaults with their sources', async () => {
    const project = newFolder();
    const { config, sources } = await loadConfig({ cwd: project, env: { OLLM_HOME: join(project, 'home') } });
    expect(config.compaction).toMatchObject({ enabled: true, preserveRecent: 2048, threshold: 0.8 });
    expect(config.snapshots).toEqual({ enabled: true, autoCreate: true, retain: 20, retainManual: 100 });
    expect(config.home).toBe(join(project, 'home'));
    expect(sources['compaction.threshold']).toBe('default');
    expect(sources.home).toBe('env:OLLM_HOME');
  });

  it('layers user file < project .ollmrc < environment < flags, and says where each value came from', async () => {
    const project = newFolder();
    const home = join(project, 'home');
    mkdirSync(home);
    writeFileSync(join(home, 'config.json'), JSON.stringify({ model: 'user-model', contextSize: 8192, compaction: { threshold: 0.7 } }));
    writeFileSync(join(project, '.ollmrc.yaml'), 'contextSize: 32768\ncompaction:\n  summaryMaxTokens: 900\n');
    const { config, sources, files } = await loadConfig({
      cwd: project,
      env: { OLLM_HOME: home, OLLM_HOST: 'http://127.0.0.1:9999', OPENAI_API_KEY: 'sk-never-printed' },
      overrides: { model: 'flag-model' },
    });
    expect(config.model).toBe('flag-model');
    expect(config.contextSize).toBe(32768);
    expect(config.compaction.threshold).toBe(0.7);
    expect(config.compaction.summaryMaxTokens).toBe(900);
    expect(config.host).toBe('http://127.0.0.1:9999');
    expect(config.apiKey).toBe('sk-never-printed');
    expect(sources).toMatchObject({
      model: 'flag',
      contextSize: join(project, '.ollmrc.yaml'),
      'compaction.threshold': join(home, 'config.json'),
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
    writeFileSync(join(project, '.ollmrc.json'), JSON.stringify({ compaction: { threshold: 1.5 } }));
    const error = await loadConfig({ cwd: project, env: { OLLM_HOME: join(project, 'home') } }).catch((caught: unknown) => caught);
    expect(InvalidConfigError.isInstance(error)).toBe(true);
    expect((error as InvalidConfigError).file).toBe(join(project, '.ollmrc.json'));
    expect((error as InvalidConfigError).key).toBe('compaction.threshold');
    expect((error as Error).message).toContain('.ollmrc.json: compaction.threshold:');
  });

  it('compaction.shape is strict by default; a file may choose openai; anything else names the file and key', async () => {
    const project = newFolder();
    const env = { OLLM_HOME: join(project, 'home') };
    expect((await loadConfig({ cwd: project, env })).config.compaction.shape).toBe('strict');
    writeFileSync(join(project, '.ollmrc.json'), JSON.stringify({ compaction: { shape: 'openai' } }));
    expect((await loadConfig({ cwd: project, env })).config.compaction.shape).toBe('openai');
    writeFileSync(join(project, '.ollmrc.json'), JSON.stringify({ compaction: { shape: 'loose' } }));
    const error = await loadConfig({ cwd: project, env }).catch((caught: unknown) => caught);
    expect(InvalidConfigError.isInstance(error)).toBe(true);
    expect((error as InvalidConfigError).key).toBe('compaction.shape');
  });

  it('leaves compaction.replyReserve unset by default, so the runtime derives it from the window', async () => {
    const project = newFolder();
    const { config, sources } = await loadConfig({ cwd: project, env: { OLLM_HOME: join(project, 'home') } });
    expect(config.compaction.replyReserve).toBeUndefined();
    expect('replyReserve' in config.compaction).toBe(false);
    expect(sources['compaction.replyReserve']).toBeUndefined();
  });

  it('accepts compaction.replyReserve from a file, and a flag overrides it', async () => {
    const project = newFolder();
    writeFileSync(join(project, '.ollmrc.json'), JSON.stringify({ compaction: { replyReserve: 2048, threshold: 0.7 } }));
    const env = { OLLM_HOME: join(project, 'home') };
    const fromFile = await loadConfig({ cwd: project, env });
    expect(fromFile.config.compaction.replyReserve).toBe(2048);
    expect(fromFile.sources['compaction.replyReserve']).toBe(join(project, '.ollmrc.json'));
    const fromFlag = await loadConfig({ cwd: project, env, overrides: { compaction: { replyReserve: 16 } } });
    expect(fromFlag.config.compaction.replyReserve).toBe(16);
    expect(fromFlag.sources['compaction.replyReserve']).toBe('flag');
    // The rest of the file's compaction section is kept beside the flag.
    expect(fromFlag.config.compaction.threshold).toBe(0.7);
  });

  it.each([
    ['zero', 0],
    ['below 16', 15],
    ['not an integer', 512.5],
    ['a string', '512'],
  ])('rejects compaction.replyReserve when %s, naming the file and the key', async (_name, value) => {
    const project = newFolder();
    writeFileSync(join(project, '.ollmrc.json'), JSON.stringify({ compaction: { replyReserve: value } }));
    const error = await loadConfig({ cwd: project, env: { OLLM_HOME: join(project, 'home') } }).catch((caught: unknown) => caught);
    expect(InvalidConfigError.isInstance(error)).toBe(true);
    expect((error as InvalidConfigError).file).toBe(join(project, '.ollmrc.json'));
    expect((error as InvalidConfigError).key).toBe('compaction.replyReserve');
    expect((error as Error).message).toContain('.ollmrc.json: compaction.replyReserve:');
  });

  it('names an unknown key and a bad environment value', async () => {
    const project = newFolder();
    writeFileSync(join(project, '.ollmrc.json'), JSON.stringify({ compacton: {} }));
    await expect(loadConfig({ cwd: project, env: { OLLM_HOME: join(project, 'home') } })).rejects.toThrowError(/compacton/);
    const clean = newFolder();
    await expect(loadConfig({ cwd: clean, env: { OLLM_HOME: join(clean, 'home'), OLLM_HOST: 'not a url' } })).rejects.toThrowError(/environment: host/);
  });

  it('refuses keys nothing reads (compaction.strategy, snapshots.autoThreshold), naming the file and the key', async () => {
    for (const [key, body] of [
      ['compaction.strategy', { compaction: { strategy: 'banana' } }],
      ['snapshots.autoThreshold', { snapshots: { autoThreshold: 0.8 } }],
    ] as const) {
      const project = newFolder();
      writeFileSync(join(project, '.ollmrc.json'), JSON.stringify(body));
      await expect(loadConfig({ cwd: project, env: { OLLM_HOME: join(project, 'home') } })).rejects.toThrowError(
        new RegExp(`\\.ollmrc\\.json: ${key.replace('.', '\\.')}: Unrecognized key`),
      );
    }
  });
  it('layers providerOptions per provider and key: user file < project file < flags, each with its source', async () => {
    const project = newFolder();
    const home = join(project, 'home');
    mkdirSync(home);
    writeFileSync(
      join(home, 'config.json'),
      JSON.stringify({ providerOptions: { trim: { previewLines: 1, maxToolCallTokens: 200 }, mask: { keepRecent: 2 } } }),
    );
    writeFileSync(join(project, '.ollmrc.json'), JSON.stringify({ providerOptions: { trim: { previewLines: 0 } } }));
    const { config, sources } = await loadConfig({
      cwd: project,
      env: { OLLM_HOME: home },
      overrides: { providerOptions: { trim: { extractiveMinTokens: 50 }, 'goal-aware': { levels: [1, 2] } } },
    });
    expect(config.providerOptions).toEqual({
      trim: { previewLines: 0, maxToolCallTokens: 200, extractiveMinTokens: 50 },
      mask: { keepRecent: 2 },
      'goal-aware': { levels: [1, 2] },
    });
    expect(sources).toMatchObject({
      'providerOptions.trim.previewLines': join(project, '.ollmrc.json'),
      'providerOptions.trim.maxToolCallTokens': join(home, 'config.json'),
      'providerOptions.trim.extractiveMinTokens': 'flag',
      'providerOptions.goal-aware.levels': 'flag',
    });
  });

  it('defaults providerOptions to none', async () => {
    const project = newFolder();
    const { config, sources } = await loadConfig({ cwd: project, env: { OLLM_HOME: join(project, 'home') } });
    expect(config.providerOptions).toEqual({});
    expect(Object.keys(sources).filter((key) => key.startsWith('providerOptions'))).toEqual([]);
  });

  it.each([
    ['providerOptions', { providerOptions: ['trim'] }],
    ['providerOptions.trim', { providerOptions: { trim: 5 } }],
    ['providerOptions.trim', { providerOptions: { trim: null } }],
  ])('rejects a providerOptions value that is not an object of objects, naming the file and %s', async (key, body) => {
    const project = newFolder();
    writeFileSync(join(project, '.ollmrc.json'), JSON.stringify(body));
    const error = await loadConfig({ cwd: project, env: { OLLM_HOME: join(project, 'home') } }).catch((caught: unknown) => caught);
    expect(InvalidConfigError.isInstance(error)).toBe(true);
    expect((error as InvalidConfigError).file).toBe(join(project, '.ollmrc.json'));
    expect((error as InvalidConfigError).key).toBe(key);
  });

  it('names the flags when a --provider-option override is invalid', async () => {
    const project = newFolder();
    const error = await loadConfig({
      cwd: project,
      env: { OLLM_HOME: join(project, 'home') },
      overrides: { providerOptions: { trim: 'x' as unknown as Record<string, unknown> } },
    }).catch((caught: unknown) => caught);
    expect((error as InvalidConfigError).file).toBe('flags');
    expect((error as InvalidConfigError).key).toBe('providerOptions.trim');
  });
  it('reads the deprecated `compression` section as `compaction`, says so once per file, and names keys as written', async () => {
    const project = newFolder();
    const home = join(project, 'home');
    mkdirSync(home);
    writeFileSync(join(home, 'config.json'), JSON.stringify({ compression: { threshold: 0.7, replyReserve: 512 } }));
    writeFileSync(join(project, '.ollmrc.json'), JSON.stringify({ compression: { summaryMaxTokens: 900 }, compaction: { summaryMaxTokens: 800 } }));
    const { config, sources, warnings } = await loadConfig({ cwd: project, env: { OLLM_HOME: home } });
    expect(config.compaction).toMatchObject({ threshold: 0.7, replyReserve: 512, summaryMaxTokens: 800, enabled: true });
    expect(sources['compaction.threshold']).toBe(join(home, 'config.json'));
    expect(sources['compaction.summaryMaxTokens']).toBe(join(project, '.ollmrc.json'));
    expect(Object.keys(sources).some((key) => key.startsWith('compression.'))).toBe(false);
    expect(warnings).toEqual([
      `${join(home, 'config.json')}: "compression" is the old name of the "compaction" section; it still works, but rename it`,
      `${join(project, '.ollmrc.json')}: "compression" is the old name of the "compaction" section; it still works, but rename it`,
    ]);

    writeFileSync(join(project, '.ollmrc.json'), JSON.stringify({ compression: { threshold: 1.5 } }));
    const error = await loadConfig({ cwd: project, env: { OLLM_HOME: home } }).catch((caught: unknown) => caught);
    expect((error as InvalidConfigError).key).toBe('compression.threshold');
  });

  it('has no warnings for a config that uses `compaction`', async () => {
    const project = newFolder();
    writeFileSync(join(project, '.ollmrc.json'), JSON.stringify({ compaction: { threshold: 0.7 } }));
    expect((await loadConfig({ cwd: project, env: { OLLM_HOME: join(project, 'home') } })).warnings).toEqual([]);
  });

  it('keeps the deprecated `config.compression` as the same section, not enumerated', async () => {
    const project = newFolder();
    const { config } = await loadConfig({ cwd: project, env: { OLLM_HOME: join(project, 'home') } });
    expect(config.compression).toBe(config.compaction);
    expect(Object.keys(config)).not.toContain('compression');
    expect(JSON.stringify(config)).not.toContain('"compression"');
  });

  it('has recovery retention defaults (30 days, 500 MB, collected at chat start) a file can change, and refuses bad values', async () => {
    const project = newFolder();
    const env = { OLLM_HOME: join(project, 'home') };
    expect((await loadConfig({ cwd: project, env })).config.recovery).toEqual({ maxAgeDays: 30, maxTotalMB: 500, autoCollect: true });
    writeFileSync(join(project, '.ollmrc.json'), JSON.stringify({ recovery: { maxTotalMB: 50 } }));
    const loaded = await loadConfig({ cwd: project, env });
    expect(loaded.config.recovery).toEqual({ maxAgeDays: 30, maxTotalMB: 50, autoCollect: true });
    expect(loaded.sources['recovery.maxTotalMB']).toBe(join(project, '.ollmrc.json'));
    for (const body of [{ recovery: { maxAgeDays: 0 } }, { recovery: { maxTotalMB: -1 } }, { recovery: { keep: 1 } }]) {
      writeFileSync(join(project, '.ollmrc.json'), JSON.stringify(body));
      const error = await loadConfig({ cwd: project, env }).catch((caught: unknown) => caught);
      expect(InvalidConfigError.isInstance(error)).toBe(true);
      expect((error as InvalidConfigError).key).toMatch(/^recovery\./);
    }
  });

  it('registers the API key and a server URL password as secrets for the process the moment it reads them', async () => {
    const project = newFolder();
    writeFileSync(join(project, '.ollmrc.json'), JSON.stringify({ host: 'http://me:p%40ss-word@127.0.0.1:11434' }));
    await loadConfig({ cwd: project, env: { OLLM_HOME: join(project, 'home'), OPENAI_API_KEY: 'sk-"registered\\key' } });
    expect(registeredSecrets()).toEqual(['sk-"registered\\key', 'p%40ss-word', 'p@ss-word']);
    expect(redactSecrets('key sk-"registered\\key, password p@ss-word')).toBe('key [redacted], password [redacted]');
  });

  it('warns that a key under 4 characters is redacted only where it stands alone', async () => {
    const project = newFolder();
    const { warnings } = await loadConfig({ cwd: project, env: { OLLM_HOME: join(project, 'home'), OPENAI_API_KEY: 'xy' } });
    expect(warnings).toEqual(['OPENAI_API_KEY is 2 characters long: a key shorter than 4 characters is redacted only where it stands alone, not inside words']);
  });
});
