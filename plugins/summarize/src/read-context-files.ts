import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { tokenPrefix, type TokenCounting } from '@ollm/core';

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
 * Reads the files a RESUME names, relative to `workspace`, each cut to `maxTokens`. A path that
 * leads outside the workspace (absolute, `..`, or a symlink out) is refused; missing, non-regular
 * and binary files are skipped. Nothing outside the workspace is ever opened.
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
    if (!statSync(real).isFile()) {
      result.skipped.push({ path, reason: 'not a regular file' });
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
