import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from '@ollm/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../cli-io.js';
import { resolveChatSettings, type ChatFlags } from './chat-settings.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** An io rooted in an empty project folder with its own ollm home, so no real config is read. */
function newIo(): CliIo {
  const cwd = mkdtempSync(join(tmpdir(), 'ollm-chat-settings-'));
  folders.push(cwd);
  const ignore = { write: () => true };
  return { stdout: ignore, stderr: ignore, cwd, env: { OLLM_HOME: join(cwd, 'home') }, isTTY: false };
}

async function rejection(flags: ChatFlags, io = newIo()): Promise<unknown> {
  return resolveChatSettings(io, flags).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('resolveChatSettings', () => {
  it('leaves force off and the reply reserve to the runtime when no flag is given', async () => {
    const settings = await resolveChatSettings(newIo(), {});
    expect(settings.force).toBe(false);
    expect(settings.loaded.config.compaction.replyReserve).toBeUndefined();
    expect(settings.contextSize).toBeUndefined();
  });

  it('lays --provider-option over the config providerOptions, key by key', async () => {
    const io = newIo();
    writeFileSync(join(io.cwd, '.ollmrc.json'), JSON.stringify({ providerOptions: { trim: { previewLines: 0, maxToolCallTokens: 200 } } }));
    const { loaded } = await resolveChatSettings(io, { providerOption: ['trim.previewLines=1', 'mask.keepRecent=2'] });
    expect(loaded.config.providerOptions).toEqual({ trim: { previewLines: 1, maxToolCallTokens: 200 }, mask: { keepRecent: 2 } });
    expect(loaded.sources['providerOptions.trim.previewLines']).toBe('flag');
    expect(loaded.sources['providerOptions.trim.maxToolCallTokens']).toBe(join(io.cwd, '.ollmrc.json'));
  });

  it('still reads the deprecated compression section, with a warning naming the file', async () => {
    const io = newIo();
    writeFileSync(join(io.cwd, '.ollmrc.json'), JSON.stringify({ compression: { replyReserve: 512, threshold: 0.7 } }));
    const { loaded } = await resolveChatSettings(io, {});
    expect(loaded.config.compaction).toMatchObject({ replyReserve: 512, threshold: 0.7 });
    expect(loaded.warnings).toEqual([
      `${join(io.cwd, '.ollmrc.json')}: "compression" is the old name of the "compaction" section; it still works, but rename it`,
    ]);
  });

  it('reads --base-url alone as --api openai; --api ollama stays ollama, and an unknown --api is exit 2', async () => {
    expect((await resolveChatSettings(newIo(), { baseUrl: 'http://127.0.0.1:8080/v1' })).loaded.config.api).toBe('openai');
    expect((await resolveChatSettings(newIo(), { api: 'ollama', baseUrl: 'http://127.0.0.1:8080/v1' })).loaded.config.api).toBe('ollama');
    const error = await rejection({ api: 'grpc' });
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('Unknown --api "grpc". APIs: ollama, openai.');
  });

  it('passes --force through', async () => {
    expect((await resolveChatSettings(newIo(), { force: true, session: 's1' })).force).toBe(true);
  });

  it.each([
    ['2048', 2048],
    ['16', 16],
    ['16_384', 16_384],
    ['16,384', 16_384],
    [' 1_000_000 ', 1_000_000],
  ])('parses --reply-reserve %j as %i tokens, overriding compaction.replyReserve', async (text, tokens) => {
    const io = newIo();
    writeFileSync(join(io.cwd, '.ollmrc.json'), JSON.stringify({ compaction: { replyReserve: 512, threshold: 0.7 } }));
    const { loaded } = await resolveChatSettings(io, { replyReserve: text });
    expect(loaded.config.compaction.replyReserve).toBe(tokens);
    expect(loaded.sources['compaction.replyReserve']).toBe('flag');
    expect(loaded.config.compaction.threshold).toBe(0.7);
  });

  it('keeps compaction.replyReserve from config when the flag is absent', async () => {
    const io = newIo();
    writeFileSync(join(io.cwd, '.ollmrc.json'), JSON.stringify({ compaction: { replyReserve: 512 } }));
    expect((await resolveChatSettings(io, {})).loaded.config.compaction.replyReserve).toBe(512);
  });

  it.each(['0', '15', '-100', '1.5', '1e3', '0x100', 'lots', '', '_100', '1__000', '9'.repeat(20)])(
    'rejects --reply-reserve %j with a clear message',
    async (text) => {
      const error = await rejection({ replyReserve: text });
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as InvalidArgumentError).message).toBe(`Invalid --reply-reserve "${text}": use a whole number of tokens, at least 16.`);
    },
  );

  it('parses --context-size the same way', async () => {
    expect((await resolveChatSettings(newIo(), { contextSize: '8,192' })).contextSize).toBe(8192);
    const error = await rejection({ contextSize: '511' });
    expect((error as Error).message).toBe('Invalid --context-size "511": use a whole number of tokens, at least 512.');
  });
});
