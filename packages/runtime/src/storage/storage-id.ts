import { InvalidArgumentError } from '@ollm/core';
import { isAbsolute, relative, resolve } from 'node:path';

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * Accepts only ids that name one plain folder or file under ollm's home: letters, digits, `.`, `_`,
 * `-`, starting with a letter or digit, at most 128 characters, never `..`. Refuses path separators,
 * absolute paths and NUL with an error that says what is allowed.
 */
export function validateStorageId(kind: 'session' | 'snapshot', id: string): string {
  if (typeof id !== 'string' || !SAFE_ID.test(id) || id.includes('..')) {
    throw new InvalidArgumentError({
      argument: `${kind}Id`,
      message: `Invalid ${kind} id ${JSON.stringify(id)}: use 1-128 letters, digits, ".", "_" or "-", starting with a letter or digit (no paths).`,
    });
  }
  return id;
}

/** Joins `parts` under `root` and refuses any result outside it (defence in depth after validation). */
export function resolveInside(root: string, ...parts: string[]): string {
  const base = resolve(root);
  const target = resolve(base, ...parts);
  const path = relative(base, target);
  if (path.startsWith('..') || isAbsolute(path)) {
    throw new InvalidArgumentError({ argument: 'path', message: `Refusing a path outside ${base}: ${target}` });
  }
  return target;
}

/** `$OLLM_HOME`, or `~/.ollm`. */
export function ollmHome(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.OLLM_HOME;
  if (home && home.length > 0) return resolve(home);
  return resolve(env.HOME ?? env.USERPROFILE ?? '.', '.ollm');
}
