import type { Message, ToolCallPart } from '@ollm/core';
import { isCheckpointMessage } from '@ollm/core';
import type { CodeView } from '../views/code-view.js';
import { detectToolView } from '../views/detect-tool-view.js';
import { findCodeBlocks } from '../views/find-code-blocks.js';
import { findHeredocWrites } from '../views/find-heredoc-writes.js';

/** Key of one message part, `messageIndex:partIndex`. */
export function partKey(messageIndex: number, partIndex: number): string {
  return `${messageIndex}:${partIndex}`;
}

/**
 * Every file view (tool results), fenced code block (assistant text) and heredoc script (shell
 * calls) a provider may fold.
 * System, user and pinned messages are never looked at: they are never edited (tool results that
 * a format carries inside user messages included).
 */
export function findCodeViews(messages: readonly Message[]): CodeView[] {
  const calls = new Map<string, ToolCallPart>();
  const views: CodeView[] = [];
  for (const [messageIndex, message] of messages.entries()) {
    for (const part of message.parts) if (part.type === 'tool-call') calls.set(part.callId, part);
    // Checkpoints too: only the provider that made one ages it.
    if (message.pinned || message.role === 'system' || message.role === 'user' || isCheckpointMessage(message)) continue;
    for (const [partIndex, part] of message.parts.entries()) {
      if (part.type === 'tool-result' && !part.isError) {
        const view = detectToolView(calls.get(part.callId), part.output, messageIndex, partIndex);
        if (view) views.push(view);
      } else if (part.type === 'text' && message.role === 'assistant') {
        views.push(...findCodeBlocks(part.text, messageIndex, partIndex));
      } else if (part.type === 'tool-call' && message.role === 'assistant') {
        views.push(...findHeredocWrites(part, messageIndex, partIndex));
      }
    }
  }
  return views;
}
