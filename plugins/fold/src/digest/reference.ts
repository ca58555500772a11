import { sha256Hex } from '@ollm/core';
import type { MessageFacts } from '../cache/message-facts.js';

/** Hex digits of the sha256 a placeholder shows: enough to be unique in a store; the whole tag costs about 14 tokens (o200k), a path about 35 more. */
export const REFERENCE_LENGTH = 12;

/** What a folded piece was: saved whole under its sha256, named in the context by a 12-hex reference. */
export interface FoldedPiece {
  readonly messageId: string;
  readonly kind: string;
  /** The piece as saved; for a saved form of messages, written out on first read. */
  readonly content: string;
  readonly sha256: string;
  /** For a saved form (`kind` turn or turns): the messages it holds, so its tokens can be added up per message. */
  readonly saved?: readonly MessageFacts[];
}

export function foldedPiece(messageId: string, kind: string, content: string): FoldedPiece {
  return { messageId, kind, content, sha256: sha256Hex(content) };
}

/** `[ollm fold 1a2b3c4d5e6f]`: read it back with `ollm recover 1a2b3c4d5e6f`. */
export function referenceTag(piece: FoldedPiece): string {
  return `[ollm fold ${piece.sha256.slice(0, REFERENCE_LENGTH)}]`;
}

/** True for text this provider wrote: never folded again. */
export function isFoldText(text: string): boolean {
  return text.startsWith('[ollm fold ');
}
