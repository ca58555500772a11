import { withParts, type Message, type ToolCallPart, type ToolResultPart } from '@ollm/core';
import { countingOwner } from './counting-owner.js';
import { buildToolResultPlaceholder, PLACEHOLDER_PREFIX, type ToolResultPlaceholderInput } from './tool-result-placeholder.js';
import type { TrimWorkspace } from './trim-workspace.js';

export interface TruncateToolResultsOptions {
  readonly threshold: number;
  readonly previewLines: number;
  readonly previewLineCharacters: number;
}

/** A placeholder must save at least this share of the output it replaces. */
export const MINIMUM_SAVING = 0.25;

interface Candidate {
  readonly messageIndex: number;
  readonly partIndex: number;
  readonly tokens: number;
}

/** Tool calls by id, to name the command in a placeholder. Tool calls are never edited, so this stays valid. */
export function indexToolCalls(messages: readonly Message[]): Map<string, ToolCallPart> {
  const calls = new Map<string, ToolCallPart>();
  for (const message of messages) {
    for (const part of message.parts) if (part.type === 'tool-call') calls.set(part.callId, part);
  }
  return calls;
}

interface MadePlaceholder {
  readonly key: string;
  readonly call: ToolCallPart | undefined;
  readonly placeholder: Placeholder;
}

/** A placeholder's size in tokens and the part that shows it instead of the output (the same object each time). */
interface Placeholder {
  readonly tokens: number;
  readonly part: ToolResultPart;
}

/** Placeholders made, per counting owner (counts differ between encodings) and output part, with what they were made from. */
const made = new WeakMap<object, WeakMap<ToolResultPart, MadePlaceholder>>();

/**
 * The placeholder of `part`'s output: the one made last time from the same inputs, else a new one.
 * A live session truncates the same outputs in every compaction; rendering one reads all its lines.
 */
function placeholderFor(part: ToolResultPart, input: ToolResultPlaceholderInput): Placeholder {
  const owner = countingOwner(input.tokens);
  let byPart = made.get(owner);
  if (!byPart) made.set(owner, (byPart = new WeakMap()));
  const key = `${input.stored.sha256} ${input.stored.path ?? ''} ${input.outputTokens} ${input.previewLines} ${input.previewLineCharacters} ${input.toolName ?? ''}`;
  const known = byPart.get(part);
  if (known !== undefined && known.key === key && known.call === input.call) return known.placeholder;
  const { text, tokens } = buildToolResultPlaceholder(input);
  const placeholder = { tokens, part: { ...part, output: text } };
  byPart.set(part, { key, call: input.call, placeholder });
  return placeholder;
}

/**
 * Phase 2: replaces tool outputs over `threshold` tokens with a recoverable placeholder, largest
 * first (earliest first on ties), stopping as soon as the conversation is under the limit; without
 * a limit every output over the threshold is truncated. Returns the number truncated.
 */
export function truncateToolResults(workspace: TrimWorkspace, calls: ReadonlyMap<string, ToolCallPart>, options: TruncateToolResultsOptions): number {
  const candidates: Candidate[] = [];
  workspace.messages.forEach((message, messageIndex) => {
    if (workspace.isProtected(messageIndex)) return;
    message.parts.forEach((part, partIndex) => {
      if (part.type !== 'tool-result' || part.output.startsWith(PLACEHOLDER_PREFIX)) return;
      const tokens = workspace.countOutput(part);
      if (tokens > options.threshold) candidates.push({ messageIndex, partIndex, tokens });
    });
  });
  candidates.sort((a, b) => b.tokens - a.tokens || a.messageIndex - b.messageIndex || a.partIndex - b.partIndex);

  let truncated = 0;
  for (const candidate of candidates) {
    if (!workspace.shouldContinue) break;
    const message = workspace.messages[candidate.messageIndex]!;
    const part = message.parts[candidate.partIndex];
    if (part?.type !== 'tool-result') continue;
    const stored = workspace.locate(part.output, part);
    const placeholder = placeholderFor(part, {
      output: part.output,
      outputTokens: candidate.tokens,
      toolName: part.name,
      call: calls.get(part.callId),
      stored,
      previewLines: options.previewLines,
      previewLineCharacters: options.previewLineCharacters,
      tokens: workspace.tokens,
    });
    // Losing a whole output for a few tokens is a bad trade.
    if (placeholder.tokens > (1 - MINIMUM_SAVING) * candidate.tokens) continue;
    const parts = message.parts.map((existing, index) => (index === candidate.partIndex ? placeholder.part : existing));
    if (!workspace.replace(candidate.messageIndex, withParts(message, parts))) continue;
    workspace.commit(message.id, 'tool-result', part.output, candidate.tokens, stored);
    truncated++;
  }
  return truncated;
}
