import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's own fixtures (always present). */
export const REPO_FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../fixtures');

/** This package's own fixtures (formats added here: classic SWE-agent, ollm's session layout); see its README. */
export const PACKAGE_FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../fixtures');

/** The shared, larger fixture set; absent on a fresh clone. */
export const SHARED_FIXTURES = resolve(REPO_FIXTURES, '../../shared/fixtures');
export const hasSharedFixtures = existsSync(SHARED_FIXTURES);

export function fixture(...segments: string[]): string {
  return join(REPO_FIXTURES, ...segments);
}

export function packageFixture(...segments: string[]): string {
  return join(PACKAGE_FIXTURES, ...segments);
}

export function filesIn(folder: string, suffix: string): string[] {
  return existsSync(folder)
    ? readdirSync(folder)
        .filter((name) => name.endsWith(suffix))
        .sort()
        .map((name) => join(folder, name))
    : [];
}
