import { isAbsolute, relative } from 'node:path';
import { CommanderError } from './commander.js';

/** The exit codes of `ollm`, documented in docs/cli.md. */
export const ExitCode = {
  ok: 0,
  failure: 1,
  badInput: 2,
  modelUnreachable: 3,
  /** The chat sent messages and got no reply to any of them (`NoReplyError`). */
  noReply: 4,
  /** 128 + SIGINT, as shells report a Ctrl-C. */
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export interface ErrorReport {
  readonly exitCode: ExitCode;
  /** One line, without the `ollm: ` prefix. */
  readonly message: string;
}

/** Node's file-system errors that mean the user named a file that cannot be read as input. */
const badPathCodes = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

/**
 * The errors mapped without `@ollm/*` (usage errors, interrupts, unreadable paths), so the
 * dispatcher can report them before any command module is loaded; undefined for the others,
 * which `reportError` (report-error.ts) maps.
 */
export function reportBasicError(error: unknown, cwd: string): ErrorReport | undefined {
  if (error instanceof CommanderError) {
    return { exitCode: error.exitCode === 0 ? ExitCode.ok : ExitCode.badInput, message: commanderMessage(error) };
  }
  if (isAbort(error)) {
    return { exitCode: ExitCode.interrupted, message: 'interrupted; nothing was written' };
  }
  const systemError = error as NodeJS.ErrnoException | undefined;
  if (systemError && typeof systemError.code === 'string' && badPathCodes.has(systemError.code) && systemError.path) {
    return { exitCode: ExitCode.badInput, message: `${displayPath(systemError.path, cwd)}: ${fileProblem(systemError.code)}` };
  }
  return undefined;
}

/** Any other error: exit 1 with its message. */
export function failureReport(error: unknown): ErrorReport {
  return { exitCode: ExitCode.failure, message: error instanceof Error ? error.message : String(error) };
}

/** An abort, possibly wrapped by the host (`ProviderExecutionError` keeps it as `cause`). */
function isAbort(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    if (current.name === 'AbortError') return true;
  }
  return false;
}

/** Collapses a message onto one line, so every error is exactly one line on stderr. */
export function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, ' ').trim();
}

/** A path as the user would have typed it: relative to the working folder when inside it. */
export function displayPath(path: string, cwd: string): string {
  if (!isAbsolute(path)) return path;
  const relativePath = relative(cwd, path);
  return relativePath.length > 0 && !relativePath.startsWith('..') && !isAbsolute(relativePath) ? relativePath : path;
}

function fileProblem(code: string): string {
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'is a folder, not a file';
  return 'a parent of this path is not a folder';
}

function commanderMessage(error: CommanderError): string {
  return error.message.replace(/^error:\s*/, '').replace(/\n\(Did you mean (.+)\?\)/, ' (did you mean $1?)');
}
