import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './write-file-atomic.js';

describe('writeFileAtomic', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'ollm-write-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  const failure = (run: () => void): NodeJS.ErrnoException => {
    try {
      run();
    } catch (error) {
      return error as NodeJS.ErrnoException;
    }
    throw new Error('expected the write to fail');
  };

  it('writes through a temporary sibling, creating missing folders, and leaves nothing else', () => {
    const path = join(folder, 'a', 'b', 'file.txt');
    writeFileAtomic(path, 'content');
    writeFileAtomic(path, 'replaced');
    expect(readFileSync(path, 'utf8')).toBe('replaced');
    expect(readdirSync(join(folder, 'a', 'b'))).toEqual(['file.txt']);
  });

  it('a path that is a folder: the error names the path, keeps the code, and no temporary file is left', () => {
    const path = join(folder, 'results');
    mkdirSync(path);
    const error = failure(() => writeFileAtomic(path, 'content'));
    expect({ code: error.code, path: error.path, message: error.message }).toEqual({
      code: 'EISDIR',
      path,
      message: `EISDIR: cannot write ${path}: illegal operation on a directory`,
    });
    expect(error.cause).toBeInstanceOf(Error);
    expect(readdirSync(folder)).toEqual(['results']);
  });

  it('a parent that is a file, or (createFolders: false) a missing folder: the error names the path', () => {
    writeFileSync(join(folder, 'plain'), 'x');
    const underFile = join(folder, 'plain', 'file.txt');
    expect(failure(() => writeFileAtomic(underFile, 'content'))).toMatchObject({ code: 'ENOTDIR', path: underFile });
    const missing = join(folder, 'missing', 'file.txt');
    const error = failure(() => writeFileAtomic(missing, 'content', { createFolders: false }));
    expect({ code: error.code, path: error.path, message: error.message }).toEqual({
      code: 'ENOENT',
      path: missing,
      message: `ENOENT: cannot write ${missing}: no such file or directory`,
    });
    expect(readdirSync(folder)).toEqual(['plain']);
  });
});
