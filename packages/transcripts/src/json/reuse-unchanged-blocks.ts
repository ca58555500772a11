import { canonicalJson } from '@ollm/core';
import { sameJson } from './same-json.js';

/**
 * For each written block, reuses the first unused source block that reads back to the same
 * part, so fields the message model drops (cache_control, signatures, image detail) survive.
 * Source blocks are grouped by the canonical form of their part, so a message of many blocks is
 * matched in time linear in its blocks (not each written block against every source block).
 */
export function reuseUnchangedBlocks<Part>(
  written: readonly { readonly part: Part; readonly block: unknown }[],
  sourceBlocks: readonly unknown[],
  readBlock: (block: unknown) => Part | undefined,
): unknown[] {
  // Each group in source order, with the index of its first unused block.
  const groups = new Map<string, { readonly blocks: { readonly block: unknown; readonly part: Part }[]; next: number }>();
  for (const block of sourceBlocks) {
    const part = safeRead(readBlock, block);
    if (part === undefined) continue;
    const form = canonicalJson(part);
    const group = groups.get(form);
    if (group) group.blocks.push({ block, part });
    else groups.set(form, { blocks: [{ block, part }], next: 0 });
  }
  return written.map(({ part, block }) => {
    const group = groups.get(canonicalJson(part));
    const match = group?.blocks[group.next];
    // One canonical form is one JSON value, save for what canonicalJson writes alike (an undefined array item as null).
    if (!group || !match || !sameJson(match.part, part)) return block;
    group.next += 1;
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
