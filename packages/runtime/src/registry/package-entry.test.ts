import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolvePackageEntry } from './package-entry.js';

const folder = mkdtempSync(join(tmpdir(), 'ollm-entry-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const manifestPath = join(folder, 'package.json');

describe('resolvePackageEntry', () => {
  it('follows an ESM-only exports map (no main, no require condition)', () => {
    const exports = { '.': { 'ollm-source': './src/index.ts', types: './dist/index.d.ts', import: './dist/index.js' }, './package.json': './package.json' };
    expect(resolvePackageEntry(manifestPath, { exports })).toBe(join(folder, 'dist/index.js'));
    expect(resolvePackageEntry(manifestPath, { exports }, ['ollm-source', 'import'])).toBe(join(folder, 'src/index.ts'));
  });

  it('accepts the string, conditions-object, array and nested forms of exports', () => {
    expect(resolvePackageEntry(manifestPath, { exports: './main.js' })).toBe(join(folder, 'main.js'));
    expect(resolvePackageEntry(manifestPath, { exports: { require: './cjs.cjs', default: './esm.js' } })).toBe(join(folder, 'esm.js'));
    expect(resolvePackageEntry(manifestPath, { exports: { '.': [{ worker: './w.js' }, './fallback.js'] } })).toBe(join(folder, 'fallback.js'));
    expect(resolvePackageEntry(manifestPath, { exports: { '.': { node: { import: './node.mjs' } } } })).toBe(join(folder, 'node.mjs'));
  });

  it('explains when exports has nothing for import', () => {
    expect(() => resolvePackageEntry(manifestPath, { exports: { '.': { require: './cjs.cjs' } } })).toThrow(/no "\." entry/);
    expect(() => resolvePackageEntry(manifestPath, { exports: { './sub': './sub.js' } })).toThrow(/no "\." entry/);
  });

  it('falls back to main, then index.js', () => {
    mkdirSync(join(folder, 'lib'), { recursive: true });
    writeFileSync(join(folder, 'lib', 'entry.js'), '');
    writeFileSync(join(folder, 'index.js'), '');
    expect(resolvePackageEntry(manifestPath, { main: './lib/entry.js' })).toBe(join(folder, 'lib/entry.js'));
    expect(resolvePackageEntry(manifestPath, { main: 'lib/entry' })).toBe(join(folder, 'lib/entry.js'));
    expect(resolvePackageEntry(manifestPath, {})).toBe(join(folder, 'index.js'));
  });
});
