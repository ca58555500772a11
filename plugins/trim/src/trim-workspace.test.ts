import { join } from 'node:path';
import { createTokenizer, RECOVERY_FOLDER, sha256Hex, TokenCounter } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { TrimWorkspace } from './trim-workspace.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));

describe('TrimWorkspace.locate', () => {
  it('names the sha256 of the content and, with a logdir, the file it will be saved as', () => {
    expect(new TrimWorkspace([], tokens, undefined, undefined).locate('some output')).toEqual({ sha256: sha256Hex('some output') });
    const sha256 = sha256Hex('some output');
    expect(new TrimWorkspace([], tokens, '/logs', undefined).locate('some output')).toEqual({ sha256, path: join('/logs', RECOVERY_FOLDER, `${sha256}.txt`) });
  });

  it('remembers the sha256 per part it was read from, and hashes again when that part holds other content', () => {
    const workspace = new TrimWorkspace([], tokens, undefined, undefined);
    const part = {};
    expect(workspace.locate('first', part).sha256).toBe(sha256Hex('first'));
    expect(workspace.locate('first', part).sha256).toBe(sha256Hex('first'));
    // Never a stale hash: the remembered one is only used for the very content it was made from.
    expect(workspace.locate('second', part).sha256).toBe(sha256Hex('second'));
    expect(workspace.locate('first', {}).sha256).toBe(sha256Hex('first'));
  });
});
