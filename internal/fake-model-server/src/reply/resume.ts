import { tokenPrefix, type Tokenizer } from '@ollm/core';
import { extractiveDigest } from './extractive-digest.js';
import { findFilePaths, findIdentifiers, scoreSentences } from './score-sentences.js';

/**
 * A RESUME of the conversation as the summarize provider asks for it: `## Summary`,
 * `## Technical Context`, `## Current State`, `## Context Files` (the paths found), within
 * `maxTokens`. The summary gets whatever budget the other sections leave.
 */
export function buildResume(conversation: string, maxTokens: number, tokenizer: Tokenizer): string {
  const files = findFilePaths(conversation);
  const identifiers = findIdentifiers(conversation).slice(0, 12);
  const sentences = scoreSentences(conversation);
  const recent = sentences.slice(-2).map((sentence) => `- ${sentence.text}`);
  const technical = identifiers.length > 0 ? `- Identifiers: ${identifiers.join(', ')}` : '- (none found)';
  const current = recent.length > 0 ? recent.join('\n') : '- (nothing yet)';
  const fileList = files.length > 0 ? files.map((file) => `- ${file}`).join('\n') : '- (none)';
  const fixed = [
    '## Technical Context',
    tokenPrefix(technical, Math.floor(maxTokens / 6), tokenizer),
    '## Current State',
    tokenPrefix(current, Math.floor(maxTokens / 6), tokenizer),
    '## Context Files',
    fileList,
  ].join('\n');
  const summaryBudget = Math.max(0, maxTokens - tokenizer.countTokens(fixed) - 8);
  const summary = extractiveDigest(conversation, summaryBudget, tokenizer);
  return tokenPrefix(`## Summary\n${summary}\n${fixed}`, maxTokens, tokenizer);
}
