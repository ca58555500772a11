import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface WorkspacePackage {
  readonly packageName: string;
  readonly manifestPath: string;
}

/**
 * The packages of the workspace that contains `folder`: the folders matched by the patterns of the
 * nearest `pnpm-workspace.yaml` (or package.json `workspaces`) — `plugins/*`, `packages/**`,
 * literal paths, and `!` exclusions — and only those: never a scan of the disk beyond what the
 * workspace declares. `node_modules` and dot-folders are never entered.
 */
export function listWorkspacePackages(folder: string): WorkspacePackage[] {
  const root = findWorkspaceRoot(folder);
  if (!root) return [];
  const normalized = root.patterns.map((pattern) => pattern.trim()).filter((pattern) => pattern.length > 0);
  const include = normalized.filter((pattern) => !pattern.startsWith('!')).map(patternSegments);
  const exclude = normalized.filter((pattern) => pattern.startsWith('!')).map((pattern) => patternSegments(pattern.slice(1)));
  const folders = new Set<string>();
  for (const pattern of include) {
    for (const relative of expandPattern(root.folder, pattern)) folders.add(relative.join('/'));
  }
  const packages: WorkspacePackage[] = [];
  for (const relative of [...folders].sort()) {
    const segments = relative.split('/');
    if (exclude.some((pattern) => matchesPattern(pattern, segments))) continue;
    const manifestPath = join(root.folder, ...segments, 'package.json');
    try {
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { name?: string };
      if (manifest.name) packages.push({ packageName: manifest.name, manifestPath });
    } catch {
      // A workspace folder with an unreadable package.json is not a plugin candidate.
    }
  }
  return packages;
}

/** How deep a `**` pattern may reach; workspaces nest packages a level or two, not more. */
const MAX_GLOB_DEPTH = 6;

function patternSegments(pattern: string): string[] {
  return pattern
    .replace(/^\.\//, '')
    .split('/')
    .filter((segment) => segment.length > 0 && segment !== '.');
}

/** Folders (relative, as segments) under `root` that match `pattern` and hold a package.json. */
function expandPattern(root: string, pattern: readonly string[]): string[][] {
  const firstGlob = pattern.findIndex((segment) => segment.includes('*'));
  if (firstGlob === -1) return existsSync(join(root, ...pattern, 'package.json')) ? [[...pattern]] : [];
  const prefix = pattern.slice(0, firstGlob);
  const maxDepth = pattern.includes('**') ? MAX_GLOB_DEPTH : pattern.length;
  const found: string[][] = [];
  const walk = (segments: string[]): void => {
    if (segments.length > prefix.length && matchesPattern(pattern, segments) && existsSync(join(root, ...segments, 'package.json'))) {
      found.push(segments);
    }
    if (segments.length >= maxDepth) return;
    for (const child of childFolders(join(root, ...segments))) walk([...segments, child]);
  };
  if (existsSync(join(root, ...prefix))) walk(prefix);
  return found;
}

/** Glob match by path segment: `**` spans any number of segments, `*` stays within one. */
function matchesPattern(pattern: readonly string[], path: readonly string[]): boolean {
  if (pattern.length === 0) return path.length === 0;
  const [head, ...rest] = pattern;
  if (head === '**') {
    for (let skip = 0; skip <= path.length; skip += 1) if (matchesPattern(rest, path.slice(skip))) return true;
    return false;
  }
  if (path.length === 0) return false;
  return segmentMatcher(head!).test(path[0]!) && matchesPattern(rest, path.slice(1));
}

function segmentMatcher(segment: string): RegExp {
  const escaped = segment.split('*').map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('[^/]*')}$`);
}

function childFolders(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.'))
    .map((entry) => entry.name);
}

function findWorkspaceRoot(start: string): { folder: string; patterns: string[] } | undefined {
  let folder = start;
  for (;;) {
    const pnpmFile = join(folder, 'pnpm-workspace.yaml');
    if (existsSync(pnpmFile)) return { folder, patterns: parseWorkspaceYaml(readFileSync(pnpmFile, 'utf8')) };
    const manifestPath = join(folder, 'package.json');
    if (existsSync(manifestPath)) {
      try {
        const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { workspaces?: string[] | { packages?: string[] } };
        const workspaces = Array.isArray(manifest.workspaces) ? manifest.workspaces : manifest.workspaces?.packages;
        if (workspaces) return { folder, patterns: workspaces };
      } catch {
        // keep walking up
      }
    }
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

/** Reads the `packages:` list of a pnpm-workspace.yaml (the only key discovery needs). */
function parseWorkspaceYaml(text: string): string[] {
  const patterns: string[] = [];
  let inPackages = false;
  for (const line of text.split(/\r?\n/)) {
    const flow = /^packages\s*:\s*\[(.*)\]\s*(#.*)?$/.exec(line);
    if (flow) {
      // `packages: ['plugins/*', "apps/*"]`
      for (const item of flow[1]!.split(',')) {
        const clean = item.trim().replace(/^['"]|['"]$/g, '');
        if (clean.length > 0) patterns.push(clean);
      }
      continue;
    }
    if (/^packages\s*:/.test(line)) {
      inPackages = true;
      continue;
    }
    if (inPackages) {
      const item = /^\s+-\s*['"]?([^'"#]+?)['"]?\s*(#.*)?$/.exec(line);
      if (item) patterns.push(item[1]!);
      else if (/^\S/.test(line)) inPackages = false;
    }
  }
  return patterns;
}
