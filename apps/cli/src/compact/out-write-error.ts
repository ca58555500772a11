import { dirname } from 'node:path';
import { InvalidArgumentError } from '@ollm/core';

/** Problems with the place `--out` names: the user can fix them by naming another (exit 2). */
const PATH_PROBLEMS: Readonly<Record<string, (given: string) => string>> = {
  ENOENT: (given) => `the folder ${dirname(given)} does not exist`,
  ENOTDIR: () => 'a parent of this path is not a folder',
  EISDIR: () => 'it is a folder',
  EACCES: () => 'permission denied',
  EPERM: () => 'permission denied',
  EROFS: () => 'the file system is read-only',
};

/**
 * A failed write of `--out` as an error naming the path as the user gave it (the temporary file
 * the write went through is already removed): InvalidArgumentError for a place that cannot be
 * written (exit 2), an Error with the reason for anything else (a full disk: exit 1).
 */
export function outWriteError(given: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const problem = typeof code === 'string' && Object.hasOwn(PATH_PROBLEMS, code) ? PATH_PROBLEMS[code] : undefined;
  if (problem) return new InvalidArgumentError({ argument: 'out', message: `--out ${given}: cannot write: ${problem(given)}` });
  const reason = error instanceof Error ? error.message : String(error);
  return new Error(`--out ${given}: cannot write: ${reason}`, { cause: error });
}
