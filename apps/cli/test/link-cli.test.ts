import { execFile } from 'node:child_process';
import { mkdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { binaryBuilt } from './chat-driver.js';
import { temporaryFolder } from './run-ollm.js';

const run = promisify(execFile);
const script = fileURLToPath(new URL('../../../scripts/link-cli.mjs', import.meta.url));
const binary = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

const folders: ReturnType<typeof temporaryFolder>[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) folder.remove();
});

/** Runs `pnpm link-cli` (the script) against a global npm prefix of its own. */
async function linkCli(prefix: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, ...args], { env: { ...process.env, npm_config_prefix: prefix } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe.skipIf(!binaryBuilt || process.platform === 'win32')('pnpm link-cli: an ollm command on PATH', () => {
  it('links ollm into npm’s global bin, runs from there, and is removed again', async () => {
    const folder = temporaryFolder();
    folders.push(folder);
    const linked = await linkCli(folder.path);
    expect(linked.code).toBe(0);
    const link = join(folder.path, 'bin', 'ollm');
    expect(readlinkSync(link)).toBe(binary);
    const version = await run(link, ['--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    // Again: the same link, no error.
    expect((await linkCli(folder.path)).code).toBe(0);
    const removed = await linkCli(folder.path, '--remove');
    expect(removed.stdout).toBe(`link-cli: removed ${link}\n`);
  });

  it('leaves an ollm that is not this checkout’s in place unless --force', async () => {
    const folder = temporaryFolder();
    folders.push(folder);
    mkdirSync(join(folder.path, 'bin'));
    writeFileSync(join(folder.path, 'bin', 'ollm'), '#!/bin/sh\necho other\n');
    const refused = await linkCli(folder.path);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("exists and is not this checkout's ollm: left in place (--force replaces it)");
    expect((await linkCli(folder.path, '--remove')).code).toBe(1);
    expect((await linkCli(folder.path, '--force')).code).toBe(0);
    expect(readlinkSync(join(folder.path, 'bin', 'ollm'))).toBe(binary);
  });
});
