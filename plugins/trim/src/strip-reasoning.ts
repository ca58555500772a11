import { withParts, type MessagePart } from '@ollm/core';
import type { TrimWorkspace } from './trim-workspace.js';

/** `<think>` / `<thinking>` blocks some models write inside their answer text. */
const THINK_BLOCK = /<(think|thinking)>[\s\S]*?<\/\1>/;
const THINK_BLOCKS = new RegExp(THINK_BLOCK.source, 'g');

/** A visible trace so a reader knows reasoning was there; only used when a message would be left empty. */
const EMPTY_MESSAGE_MARKER = '[reasoning removed]';

/**
 * Phase 1: removes reasoning parts, and think blocks inside text, from assistant messages older
 * than `ageThreshold` positions from the end (the last `ageThreshold` messages keep theirs).
 * Each removed piece is saved as it was, so it can be recovered byte for byte.
 * Returns the number of messages changed.
 */
export function stripReasoning(workspace: TrimWorkspace, ageThreshold: number): number {
  let changed = 0;
  const end = workspace.messages.length - ageThreshold;
  for (let index = 0; index < end; index++) {
    const message = workspace.messages[index]!;
    if (message.role !== 'assistant' || workspace.isProtected(index)) continue;
    const pieces: string[] = [];
    const parts: MessagePart[] = [];
    for (const part of message.parts) {
      if (part.type === 'reasoning') {
        pieces.push(part.text);
      } else if (part.type === 'text' && THINK_BLOCK.test(part.text)) {
        const text = part.text.replace(THINK_BLOCKS, (block) => {
          pieces.push(block);
          return '';
        });
        // Blank lines left where a block stood would only cost tokens.
        parts.push({ ...part, text: text.replace(/\n{3,}/g, '\n\n').trim() });
      } else {
        parts.push(part);
      }
    }
    if (pieces.length === 0) continue;
    const kept = parts.filter((part) => part.type !== 'text' || part.text.length > 0);
    const next = withParts(message, kept.length > 0 ? kept : [{ type: 'text', text: EMPTY_MESSAGE_MARKER }]);
    if (!workspace.replace(index, next)) continue;
    for (const piece of pieces) workspace.commit(message.id, 'reasoning', piece);
    changed++;
  }
  return changed;
}
