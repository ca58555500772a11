import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { formatInteger, tokenPrefix, type TokenCounting } from '@ollm/core';

export interface ContextFile {
  readonly path: string;
  readonly text: string;
  readonly tokens: number;
  readonly cut: boolean;
}

export interface ContextFilesRead {
  readonly files: ContextFile[];
  /** Paths not read, each with the reason. */
  readonly skipped: { path: string; reason: string }[];
}

/**
 * A context file larger than this is skipped, not read: each is cut to a few thousand tokens
 * anyway, and reading a file of hundreds of megabytes to cut it would stall the compaction (or
 * abort it: a string cannot hold more than about 512 MiB).
 */
export const MAXIMUM_CONTEXT_FILE_BYTES = 1024 * 1024;

// Made on first use: a number format loads its locale's data (~15 ms) when built.
const formatBytes = formatInteger;

/**
 * Reads the files a RESUME names, relative to `workspace`, each cut to `maxTokens`. A path that
 * leads outside the workspace (absolute, `..`, or a symlink out) is refused; missing, non-regular,
 * oversized (over `MAXIMUM_CONTEXT_FILE_BYTES`, told by its size before it is opened) and binary
 * files are skipped. Nothing outside the workspace is ever opened.
 */
export function readContextFiles(paths: readonly string[], workspace: string, maxTokens: number, tokens: TokenCounting): ContextFilesRead {
  const result: ContextFilesRead = { files: [], skipped: [] };
  let root: string;
  try {
    root = realpathSync(workspace);
  } catch {
    for (const path of paths) result.skipped.push({ path, reason: `workspace ${workspace} does not exist` });
    return result;
  }
  for (const path of paths) {
    const target = resolve(root, path);
    if (!inside(root, target)) {
      result.skipped.push({ path, reason: 'outside the workspace, refused' });
      continue;
    }
    let real: string;
    try {
      real = realpathSync(target);
    } catch {
      result.skipped.push({ path, reason: 'does not exist' });
      continue;
    }
    if (!inside(root, real)) {
      result.skipped.push({ path, reason: 'a link leading outside the workspace, refused' });
      continue;
    }
    const stats = statSync(real);
    if (!stats.isFile()) {
      result.skipped.push({ path, reason: 'not a regular file' });
      continue;
    }
    if (stats.size > MAXIMUM_CONTEXT_FILE_BYTES) {
      result.skipped.push({
        path,
        reason: `${formatBytes(stats.size)} bytes, over the limit of ${formatBytes(MAXIMUM_CONTEXT_FILE_BYTES)} for a context file`,
      });
      continue;
    }
    const content = readFileSync(real, 'utf8');
    if (content.includes('\u0000')) {
      result.skipped.push({ path, reason: 'binary' });
      continue;
    }
    const total = tokens.countText(content);
    const text = total > maxTokens ? tokenPrefix(content, maxTokens, tokens.tokenizer) : content;
    result.files.push({ path: relative(root, real), text, tokens: total, cut: total > maxTokens });
  }
  return result;
}

function inside(root: string, target: string): boolean {
  const rest = relative(root, target);
  return rest !== '' && !rest.startsWith('..') && !isAbsolute(rest);
}
