import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listWorkspacePackages } from './workspace-packages.js';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A workspace root with `workspaceFile` and a package.json in each of `packageFolders`. */
function workspace(workspaceFile: { name: string; text: string }, packageFolders: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'ollm-workspace-list-'));
  folders.push(root);
  writeFileSync(join(root, workspaceFile.name), workspaceFile.text);
  if (workspaceFile.name !== 'package.json') writeFileSync(join(root, 'package.json'), '{"name":"root","private":true}');
  for (const folder of packageFolders) {
    mkdirSync(join(root, folder), { recursive: true });
    writeFileSync(join(root, folder, 'package.json'), JSON.stringify({ name: `@w/${folder.replaceAll('/', '-')}` }));
  }
  return root;
}

const names = (root: string, from = root) =>
  listWorkspacePackages(from)
    .map((entry) => entry.packageName)
    .sort();

describe('listWorkspacePackages', () => {
  it('expands one-level globs and literal paths from pnpm-workspace.yaml, from any folder inside', () => {
    const root = workspace({ name: 'pnpm-workspace.yaml', text: 'packages:\n  - \'plugins/*\'\n  - "tools/one"  # comment\ncatalog:\n  - ignored/*\n' }, [
      'plugins/a',
      'plugins/b',
      'plugins/a/nested',
      'tools/one',
      'tools/two',
      'ignored/x',
    ]);
    expect(names(root)).toEqual(['@w/plugins-a', '@w/plugins-b', '@w/tools-one']);
    expect(names(root, join(root, 'plugins', 'a'))).toEqual(['@w/plugins-a', '@w/plugins-b', '@w/tools-one']);
    const entry = listWorkspacePackages(root).find((item) => item.packageName === '@w/plugins-a');
    expect(entry?.manifestPath).toBe(join(root, 'plugins', 'a', 'package.json'));
  });

  it('expands ** to any depth, skipping node_modules, and applies ! exclusions', () => {
    const root = workspace({ name: 'pnpm-workspace.yaml', text: "packages:\n  - 'packages/**'\n  - '!**/test/**'\n" }, [
      'packages/a',
      'packages/group/b',
      'packages/group/test/fixture',
      'packages/a/node_modules/dependency',
    ]);
    expect(names(root)).toEqual(['@w/packages-a', '@w/packages-group-b']);
  });

  it('reads a flow-style list and npm/yarn package.json workspaces', () => {
    const flow = workspace({ name: 'pnpm-workspace.yaml', text: 'packages: [\'apps/*\', "libs/core"]\n' }, ['apps/web', 'libs/core', 'libs/other']);
    expect(names(flow)).toEqual(['@w/apps-web', '@w/libs-core']);
    const npm = workspace({ name: 'package.json', text: JSON.stringify({ name: 'root', workspaces: ['modules/*'] }) }, ['modules/m1']);
    expect(names(npm)).toEqual(['@w/modules-m1']);
    const yarn = workspace({ name: 'package.json', text: JSON.stringify({ name: 'root', workspaces: { packages: ['modules/*'] } }) }, ['modules/m2']);
    expect(names(yarn)).toEqual(['@w/modules-m2']);
  });

  it('finds nothing outside a workspace', () => {
    const root = mkdtempSync(join(tmpdir(), 'ollm-no-workspace-'));
    folders.push(root);
    writeFileSync(join(root, 'package.json'), '{"name":"alone"}');
    expect(listWorkspacePackages(root)).toEqual([]);
  });
});
