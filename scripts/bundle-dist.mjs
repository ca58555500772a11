// Replaces a package's compiled modules (tsc's dist/**/*.js) with one ES module per entry point
// (its package.json exports and bin), plus shared chunks for what its entries share or load
// lazily. Run by each package's `build` after tsc, from the package's folder.
//
// Why: node resolves, reads and links every module of an import graph one by one; a command of
// the CLI loaded ~250 of them (~85 ms of its start). Bundled, a package is one module (and its
// lazy chunks). Every bare import (node builtins, npm packages, other @ollm/* packages) stays an
// import, so each package is still one module instance, shared by all its importers (only npm
// packages a package.json lists under `ollmBuild.inline`, used by that package alone, are
// bundled). Nothing is tree-shaken: the modules run exactly as they did, in the same order. The type declarations
// (dist/**/*.d.ts) are tsc's, untouched. No source map: one of the bundle would name tsc's output,
// which it replaces.
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { rolldown } from 'rolldown';

const root = process.cwd();
const dist = join(root, 'dist');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Every dist/ JavaScript file an export or a bin names: entry name (its path without .js) -> file. */
function entryPoints() {
  const targets = [];
  const collect = (value) => {
    if (typeof value === 'string') targets.push(value);
    else if (value && typeof value === 'object')
      for (const [condition, inner] of Object.entries(value)) if (condition !== 'types' && condition !== 'ollm-source') collect(inner);
  };
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) if (subpath !== './package.json') collect(target);
  collect(typeof manifest.bin === 'string' ? manifest.bin : (manifest.bin ?? {}));
  const entries = {};
  for (const target of targets) {
    const file = resolve(root, target);
    if (!file.startsWith(dist + sep) || !file.endsWith('.js')) continue;
    if (!existsSync(file)) throw new Error(`${manifest.name}: ${target} does not exist; run tsc first`);
    entries[relative(dist, file).slice(0, -'.js'.length).split(sep).join('/')] = file;
  }
  return entries;
}

function javascriptFiles(folder) {
  const files = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) files.push(...javascriptFiles(path));
    else if (name.endsWith('.js') || name.endsWith('.js.map')) files.push(path);
  }
  return files;
}

const inline = manifest.ollmBuild?.inline ?? [];
const inlined = (id) => inline.some((name) => id === name || id.startsWith(`${name}/`));

const entries = entryPoints();
if (Object.keys(entries).length === 0) throw new Error(`${manifest.name}: no dist/*.js entry point in its exports or bin`);
const compiled = javascriptFiles(dist);
const staging = mkdtempSync(join(dist, '.bundle-'));
try {
  const bundle = await rolldown({
    input: entries,
    platform: 'node',
    treeshake: false,
    // Only the package's own modules are bundled, and the npm packages its package.json lists
    // under `ollmBuild.inline` (those only it uses, such as the CLI's argument parser: one ES
    // module less to resolve, read, link and, for CommonJS, scan for exports at every start).
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && !inlined(id),
    logLevel: 'warn',
  });
  // Chunks at dist/'s top level, where most modules were: a module that finds a file next to it
  // (`new URL('../package.json', import.meta.url)`) finds the same file from there.
  await bundle.write({ dir: staging, format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunk-[name]-[hash].js' });
  await bundle.close();
  // Whole bundles are moved in only once written: a failed build leaves tsc's modules.
  for (const file of compiled) rmSync(file);
  for (const file of javascriptFiles(staging)) {
    const target = join(dist, relative(staging, file));
    if (!existsSync(dirname(target))) throw new Error(`${manifest.name}: no folder for ${relative(root, target)}`);
    renameSync(file, target);
  }
} finally {
  rmSync(staging, { recursive: true, force: true });
}
