import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The conditions discovery resolves `exports` with, as Node does for `import()`. */
export const DEFAULT_IMPORT_CONDITIONS: readonly string[] = ['import', 'node', 'default'];

interface EntryManifest {
  exports?: unknown;
  main?: unknown;
}

/**
 * The file `import(packageName)` would load for the package whose package.json is at
 * `manifestPath`: the `exports` root (`"."`) under `conditions` (key order decides, as in Node),
 * else `main`, else `index.js`. Plugins are usually ESM packages with only an `exports` map, which
 * `require.resolve` cannot see (no `require` condition, no `main`), so this is done by hand.
 */
export function resolvePackageEntry(manifestPath: string, manifest: EntryManifest, conditions: readonly string[] = DEFAULT_IMPORT_CONDITIONS): string {
  const folder = dirname(manifestPath);
  const active = new Set([...conditions, 'default']);
  if (manifest.exports !== undefined && manifest.exports !== null) {
    const target = resolveTarget(rootExport(manifest.exports), active);
    if (target === undefined) throw new Error(`its package.json "exports" has no "." entry for the conditions ${[...active].join(', ')}`);
    return join(folder, target);
  }
  for (const candidate of [typeof manifest.main === 'string' ? manifest.main : undefined, 'index.js']) {
    if (candidate === undefined) continue;
    for (const path of [candidate, `${candidate}.js`, join(candidate, 'index.js')]) {
      if (existsSync(join(folder, path))) return join(folder, path);
    }
  }
  throw new Error('it has neither "exports", a "main" that exists, nor an index.js');
}

/** `exports` is either the root target itself, or an object of subpaths (keys starting with "."). */
function rootExport(exports: unknown): unknown {
  if (typeof exports === 'object' && exports !== null && !Array.isArray(exports)) {
    const keys = Object.keys(exports);
    if (keys.some((key) => key.startsWith('.'))) return (exports as Record<string, unknown>)['.'];
  }
  return exports;
}

function resolveTarget(target: unknown, conditions: ReadonlySet<string>): string | undefined {
  if (typeof target === 'string') return target;
  if (Array.isArray(target)) {
    for (const item of target) {
      const resolved = resolveTarget(item, conditions);
      if (resolved !== undefined) return resolved;
    }
    return undefined;
  }
  if (typeof target === 'object' && target !== null) {
    for (const [condition, value] of Object.entries(target)) {
      if (!conditions.has(condition)) continue;
      const resolved = resolveTarget(value, conditions);
      if (resolved !== undefined) return resolved;
    }
  }
  return undefined;
}
