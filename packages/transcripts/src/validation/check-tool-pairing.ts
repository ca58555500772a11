import type { Message } from '@ollm/core';
import { invalidTranscript } from './invalid-transcript.js';

/**
 * Every tool result must follow a tool call with the same id: an orphan result means the file
 * was cut or edited badly, and no provider could keep it paired.
 */
export function checkToolPairing(messages: readonly Message[], file: string, positionOf: (index: number) => string): void {
  const calls = new Set<string>();
  for (const [index, message] of messages.entries()) {
    for (const part of message.parts) {
      if (part.type === 'tool-call') calls.add(part.callId);
      else if (part.type === 'tool-result' && !calls.has(part.callId)) {
        throw invalidTranscript(file, positionOf(index), `tool result for call "${part.callId}" has no earlier tool call`);
      }
    }
  }
}
