import { cannotExceedTokens, withParts } from '@ollm/core';
import { foldToolCall, isFoldedToolCall, MINIMUM_FOLD_SAVING, rawToolCallInput } from './fold-tool-call.js';
import type { TrimWorkspace } from './trim-workspace.js';

export interface FoldToolCallInputsOptions {
  /** Calls whose arguments have more tokens than this are folded. */
  readonly threshold: number;
  /** The last `ageThreshold` messages keep their calls whole (recency). */
  readonly ageThreshold: number;
  readonly previewLineCharacters: number;
}

interface Candidate {
  readonly messageIndex: number;
  readonly partIndex: number;
  readonly tokens: number;
}

/**
 * Phase 3: folds the long arguments of tool calls (scripts and files the agent wrote inside its
 * commands) in assistant messages older than `ageThreshold` positions from the end, largest first
 * (earliest first on ties), only while over the limit. Without a limit it does nothing: a call is
 * the record of what the agent did, so it is shortened only to reach a target. The raw arguments
 * are saved. Returns the number of calls folded.
 */
export function foldToolCallInputs(workspace: TrimWorkspace, options: FoldToolCallInputsOptions): number {
  if (!workspace.overLimit) return 0;
  const candidates: Candidate[] = [];
  const end = workspace.messages.length - options.ageThreshold;
  for (let messageIndex = 0; messageIndex < end; messageIndex++) {
    const message = workspace.messages[messageIndex]!;
    if (message.role !== 'assistant' || workspace.isProtected(messageIndex)) continue;
    message.parts.forEach((part, partIndex) => {
      if (part.type !== 'tool-call') return;
      const raw = rawToolCallInput(part);
      // A token is at least one byte: a call of fewer bytes cannot be over the threshold, no need to count it.
      if (cannotExceedTokens(raw, options.threshold) || isFoldedToolCall(part)) return;
      const tokens = workspace.countToolCallInput(part, raw);
      if (tokens > options.threshold) candidates.push({ messageIndex, partIndex, tokens });
    });
  }
  candidates.sort((a, b) => b.tokens - a.tokens || a.messageIndex - b.messageIndex || a.partIndex - b.partIndex);

  let folded = 0;
  for (const candidate of candidates) {
    if (!workspace.overLimit) break;
    const message = workspace.messages[candidate.messageIndex]!;
    const part = message.parts[candidate.partIndex];
    if (part?.type !== 'tool-call') continue;
    const raw = rawToolCallInput(part);
    const stored = workspace.locate(raw, part);
    const next = foldToolCall(part, { stored, lineCharacters: options.previewLineCharacters, tokens: workspace.tokens, inputTokens: candidate.tokens });
    if (next === undefined || workspace.tokens.countText(rawToolCallInput(next)) > (1 - MINIMUM_FOLD_SAVING) * candidate.tokens) continue;
    const parts = message.parts.map((existing, index) => (index === candidate.partIndex ? next : existing));
    if (!workspace.replace(candidate.messageIndex, withParts(message, parts))) continue;
    workspace.commit(message.id, 'tool-call-input', raw, candidate.tokens, stored);
    folded++;
  }
  return folded;
}
