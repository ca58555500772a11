import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface WriteFileAtomicOptions {
  /** Create missing parent folders first (default true); false: a missing folder is an error (ENOENT). */
  readonly createFolders?: boolean;
}

/**
 * Writes a file through a temporary sibling (`<path>.<pid>.<random>.tmp`) and a rename, so readers
 * never see half a file. On any failure the temporary file is removed and the error names `path`,
 * the file the caller asked for, never the temporary one; Node's `code` (ENOENT, EACCES, EISDIR, ...)
 * and `syscall` are kept, and the original error is the `cause`.
 */
export function writeFileAtomic(path: string, content: string, options: WriteFileAtomicOptions = {}): void {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  let created = false;
  try {
    if (options.createFolders !== false) createFolders(dirname(path));
    const descriptor = openSync(temporary, 'wx');
    created = true;
    try {
      writeFileSync(descriptor, content, 'utf8');
    } finally {
      closeSync(descriptor);
    }
    renameSync(temporary, path);
  } catch (error) {
    if (created) rmSync(temporary, { force: true });
    throw writeError(path, error);
  }
}

/** `mkdir -p`; a parent that is a file fails as opening under it would (ENOTDIR), not with mkdir's EEXIST. */
function createFolders(folder: string): void {
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    const cause = error as NodeJS.ErrnoException;
    if (cause.code !== 'EEXIST') throw error;
    throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${folder}'`, { cause: error }), { code: 'ENOTDIR', syscall: 'mkdir', path: folder });
  }
}

/** The error as one about `path`: `ENOENT: cannot write <path>: no such file or directory`. */
function writeError(path: string, error: unknown): Error {
  const cause = error as NodeJS.ErrnoException;
  if (!(error instanceof Error) || typeof cause.code !== 'string') return error instanceof Error ? error : new Error(String(error));
  // Node's message is `CODE: description, syscall 'path'`: keep the description, drop the temporary path.
  const description = /^[A-Z0-9_]+: (.*?), \w+ '/.exec(cause.message)?.[1] ?? cause.message;
  const wrapped: NodeJS.ErrnoException = new Error(`${cause.code}: cannot write ${path}: ${description}`, { cause: error });
  wrapped.code = cause.code;
  wrapped.path = path;
  if (cause.syscall !== undefined) wrapped.syscall = cause.syscall;
  if (cause.errno !== undefined) wrapped.errno = cause.errno;
  return wrapped;
}
