import { isCheckpointMessage, type Message } from '@ollm/core';

export function isFixed(message: Message): boolean {
  return message.pinned === true || message.role === 'system' || message.role === 'user' || isCheckpointMessage(message);
}

/**
 * True when nothing more can go: besides the messages fold never edits, only bare references
 * (`[ollm fold 1a2b3c4d5e6f]`) remain, each keeping two user turns apart.
 */
export function isIrreducible(output: readonly Message[]): boolean {
  return output.every(
    (message) =>
      isFixed(message) ||
      (message.role === 'assistant' &&
        message.parts.length === 1 &&
        message.parts[0]!.type === 'text' &&
        /^\[ollm fold [0-9a-f]{12}\]$/.test(message.parts[0]!.text)),
  );
}
