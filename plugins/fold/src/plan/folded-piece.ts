/** A piece of the conversation folded out of view: saved whole, named by a 12-hex reference. */
export interface FoldedPiece {
  readonly messageId: string;
  readonly kind: string;
  readonly content: string;
  readonly sha256: string;
  readonly originalTokens: number;
}
