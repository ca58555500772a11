import { sha256Hex, type TokenCounting } from '@ollm/core';

/** A piece of the conversation folded out of view: saved whole, named by a 12-hex reference. */
export interface FoldedPiece {
  readonly messageId: string;
  readonly kind: string;
  readonly content: string;
  readonly sha256: string;
  readonly originalTokens: number;
}

/** Hex digits of the sha256 a reference shows: what `ollm recover` takes. */
export const REFERENCE_LENGTH = 12;

/** `[ollm fold 1a2b3c4d5e6f]`: read it back with `ollm recover 1a2b3c4d5e6f`. */
export function referenceTag(sha256: string): string {
  return `[ollm fold ${sha256.slice(0, REFERENCE_LENGTH)}]`;
}

/** `content` as a piece of `messageId` (its sha256 computed unless given, its tokens counted). */
export function foldedPiece(messageId: string, kind: string, content: string, tokens: TokenCounting, sha256 = sha256Hex(content)): FoldedPiece {
  return { messageId, kind, content, sha256, originalTokens: tokens.countText(content) };
}
