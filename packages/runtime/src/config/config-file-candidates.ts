import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The files cosmiconfig 9 reads by default for module `ollm`, in its order. A test keeps this
 * list equal to cosmiconfig's own `getDefaultSearchPlaces('ollm')`.
 */
export const COSMICONFIG_DEFAULT_FILES: readonly string[] = [
  'package.json',
  '.ollmrc',
  '.ollmrc.json',
  '.ollmrc.yaml',
  '.ollmrc.yml',
  '.ollmrc.js',
  '.ollmrc.ts',
  '.ollmrc.cjs',
  '.ollmrc.mjs',
  '.config/ollmrc',
  '.config/ollmrc.json',
  '.config/ollmrc.yaml',
  '.config/ollmrc.yml',
  '.config/ollmrc.js',
  '.config/ollmrc.ts',
  '.config/ollmrc.cjs',
  '.config/ollmrc.mjs',
  'ollm.config.js',
  'ollm.config.ts',
  'ollm.config.cjs',
  'ollm.config.mjs',
];

/**
 * The project config files ollm reads, in each folder from the working directory up to the
 * project's root (the first folder with a package.json): cosmiconfig's defaults, then
 * `ollm.config.json` / `.yaml` / `.yml`, the names people write beside `ollm.config.js`.
 */
export const PROJECT_CONFIG_FILES: readonly string[] = [...COSMICONFIG_DEFAULT_FILES, 'ollm.config.json', 'ollm.config.yaml', 'ollm.config.yml'];

/**
 * The folders a project config is looked for in, as cosmiconfig's `project` search walks them:
 * `folder`, then each parent up to and including the first that has a `package.json` (or
 * `package.yaml`), or the filesystem root.
 */
export function projectFolders(folder: string): string[] {
  const folders: string[] = [];
  let current = folder;
  for (;;) {
    folders.push(current);
    if (existsSync(join(current, 'package.json')) || existsSync(join(current, 'package.yaml'))) return folders;
    const parent = dirname(current);
    if (parent === current) return folders;
    current = parent;
  }
}

/**
 * Where cosmiconfig looks, in the working directory, for a config of its own that can change
 * where it searches (its `metaSearchPlaces`; in a package file, the `cosmiconfig` key).
 */
export const META_CONFIG_FILES: readonly string[] = [
  'package.json',
  'package.yaml',
  '.config/config.json',
  '.config/config.yaml',
  '.config/config.yml',
  '.config/config.js',
  '.config/config.ts',
  '.config/config.cjs',
  '.config/config.mjs',
];

/**
 * Whether cosmiconfig could find anything searching from `folder` up for ollm's project config, with its
 * own meta config looked for in `workingDirectory`. False only when none of the files exist
 * but a `package.json` that parses and has neither an `ollm` nor a `cosmiconfig` key: then the
 * search finds nothing, and loading cosmiconfig (~15 ms and 20 modules) to be told so is skipped.
 * Anything else (a candidate file, a package.json that does not parse) is left to cosmiconfig.
 */
export function mayHoldProjectConfig(folder: string, workingDirectory: string): boolean {
  const places = [
    ...projectFolders(folder).flatMap((candidate) => PROJECT_CONFIG_FILES.map((file) => join(candidate, file))),
    ...META_CONFIG_FILES.map((file) => join(workingDirectory, file)),
  ];
  for (const path of new Set(places)) {
    if (!existsSync(path)) continue;
    if (!path.endsWith('package.json') || packageMayConfigure(path)) return true;
  }
  return false;
}

function packageMayConfigure(path: string): boolean {
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return true; // cosmiconfig reports it as it always has
  }
  if (manifest === null || typeof manifest !== 'object' || Array.isArray(manifest)) return true;
  return 'ollm' in manifest || 'cosmiconfig' in manifest;
}
