import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface WorkspacePackage {
  readonly packageName: string;
  readonly manifestPath: string;
}

/**
 * The packages of the workspace that contains `folder`: the globs declared in the nearest
 * `pnpm-workspace.yaml` (or package.json `workspaces`), expanded one folder level deep
 * (`plugins/*`) — only the folders the workspace declares, never a scan of the disk.
 */
export function listWorkspacePackages(folder: string): WorkspacePackage[] {
  const root = findWorkspaceRoot(folder);
  if (!root) return [];
  const packages: WorkspacePackage[] = [];
  for (const pattern of root.patterns) {
    const clean = pattern.replace(/^\.\//, '').replace(/\/$/, '');
    if (clean.startsWith('!')) continue;
    const folders = clean.endsWith('/*') ? childFolders(join(root.folder, clean.slice(0, -2))) : [join(root.folder, clean)];
    for (const packageFolder of folders) {
      const manifestPath = join(packageFolder, 'package.json');
      if (!existsSync(manifestPath)) continue;
      try {
        const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { name?: string };
        if (manifest.name) packages.push({ packageName: manifest.name, manifestPath });
      } catch {
        // A workspace folder with an unreadable package.json is not a plugin candidate.
      }
    }
  }
  return packages;
}

function childFolders(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(folder, entry.name));
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
