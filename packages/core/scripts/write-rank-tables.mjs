// Writes each encoding's rank table in core's flat form beside the built tokenizer
// (dist/tokens/<encoding>.ranks), so a process reads it instead of compiling gpt-tokenizer's ranks.
// Run by `pnpm build` after tsc. The file is written whole and renamed into place.
import { renameSync, writeFileSync } from 'node:fs';
import { buildRankTable, rankTableFileName } from '../dist/tokens/bpe-tokenizer.js';

for (const encoding of ['o200k_base', 'cl100k_base']) {
  const target = new URL(`../dist/tokens/${rankTableFileName(encoding)}`, import.meta.url);
  const partial = new URL(`${target.href}.${process.pid}.partial`);
  writeFileSync(partial, buildRankTable(encoding).bytes());
  renameSync(partial, target);
}
