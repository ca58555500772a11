import { sameJson } from './same-json.js';

/**
 * For each written block, reuses the first unused source block that reads back to the same
 * part, so fields the message model drops (cache_control, signatures, image detail) survive.
 */
export function reuseUnchangedBlocks<Part>(
  written: readonly { readonly part: Part; readonly block: unknown }[],
  sourceBlocks: readonly unknown[],
  readBlock: (block: unknown) => Part | undefined,
): unknown[] {
  const candidates = sourceBlocks.map((block) => ({ block, part: safeRead(readBlock, block), used: false }));
  return written.map(({ part, block }) => {
    const match = candidates.find((candidate) => !candidate.used && candidate.part !== undefined && sameJson(candidate.part, part));
    if (!match) return block;
    match.used = true;
    return match.block;
  });
}

function safeRead<Part>(readBlock: (block: unknown) => Part | undefined, block: unknown): Part | undefined {
  try {
    return readBlock(block);
  } catch {
    return undefined;
  }
}
