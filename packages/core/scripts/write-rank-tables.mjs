// Writes each encoding's rank table in core's flat form beside core's bundle (dist/<encoding>.ranks,
// which the tokenizer reads relative to its own module once bundled), so a process reads it
// instead of compiling gpt-tokenizer's ranks. Run by `pnpm build` after tsc, before the bundle
// (it imports tsc's module). The file is written whole and renamed into place.
import { renameSync, writeFileSync } from 'node:fs';
import { buildRankTable, rankTableFileName } from '../dist/tokens/bpe-tokenizer.js';

for (const encoding of ['o200k_base', 'cl100k_base']) {
  const target = new URL(`../dist/${rankTableFileName(encoding)}`, import.meta.url);
  const partial = new URL(`${target.href}.${process.pid}.partial`);
  writeFileSync(partial, buildRankTable(encoding).bytes());
  renameSync(partial, target);
}
