// Warm trim, median ms per transcript at a 50% budget, on the SWE-agent fixtures (issue 15):
//   pnpm vitest run --config plugins/trim/scripts/vitest.measure.config.ts warm-trim
// Each transcript is parsed once; every run gets a new TokenCounter that has counted the
// conversation already (untimed, as a live session's ledger has), then trim is timed through
// core's compactWith. 10 runs, the median of the last 9. `reparsed` parses the file again before
// every run (new objects, the same strings) and times the whole count + trim. TRIM_CONTENT_CACHE=off
// gives the counter no content cache (identity caches only, as before the content cache).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compactWith, createTokenizer, TokenCounter, type Message, type Tokenizer } from '@ollm/core';
import { parseTranscript } from '@ollm/transcripts';
import { expect, it } from 'vitest';
import trim from '../src/index.js';

const root = new URL('../../../', import.meta.url).pathname;
const shared = join(root, '..', 'shared', 'fixtures', 'swe-agent-django');
const folder = existsSync(shared) ? shared : join(root, 'fixtures', 'swe-agent-django');
const RUNS = Number(process.env['TRIM_RUNS'] ?? 10);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

// Every text handed to the BPE, counted: a figure that, unlike time, a loaded machine cannot blur.
const o200k = createTokenizer('o200k_base');
const bpe = { calls: 0, characters: 0 };
const tokenizer: Tokenizer = {
  ...o200k,
  countTokens: (text) => {
    bpe.calls += 1;
    bpe.characters += text.length;
    return o200k.countTokens(text);
  },
};

function counter(): TokenCounter {
  return process.env['TRIM_CONTENT_CACHE'] === 'off' ? new TokenCounter(tokenizer, { contentCache: false }) : new TokenCounter(tokenizer);
}

it('measures warm trim on the SWE-agent fixtures', async () => {
  // TRIM_FILE=django__django-13265 measures one transcript.
  const only = process.env['TRIM_FILE'];
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.traj.json') && (only === undefined || name.startsWith(only)))
    .sort();
  const rows: string[] = [];
  const warmMedians: number[] = [];
  const reparsedMedians: number[] = [];
  for (const name of files) {
    const text = readFileSync(join(folder, name), 'utf8');
    const parse = (): readonly Message[] => parseTranscript(text, { file: name }).conversations[0]!.messages;
    const messages = parse();
    const total = counter().countMessages(messages);
    const limit = Math.floor(total * 0.5);
    const warm: number[] = [];
    let warmBpe = '';
    for (let run = 0; run < RUNS; run++) {
      const tokens = counter();
      tokens.countMessages(messages);
      bpe.calls = 0;
      bpe.characters = 0;
      const started = performance.now();
      const result = await compactWith(trim, messages, { config: { limit }, context: { tokens } });
      warm.push(performance.now() - started);
      warmBpe = `${bpe.calls} BPE calls, ${bpe.characters} characters`;
      expect(result.messages.length).toBeGreaterThan(0);
    }
    const reparsed: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const fresh = parse();
      const started = performance.now();
      const tokens = counter();
      tokens.countMessages(fresh);
      await compactWith(trim, fresh, { config: { limit }, context: { tokens } });
      reparsed.push(performance.now() - started);
    }
    const warmMedian = median(warm.slice(1));
    const reparsedMedian = median(reparsed.slice(1));
    warmMedians.push(warmMedian);
    reparsedMedians.push(reparsedMedian);
    rows.push(
      `${name.padEnd(32)} ${String(total).padStart(7)} tokens  warm ${warmMedian.toFixed(2).padStart(8)} ms  reparsed ${reparsedMedian.toFixed(2).padStart(8)} ms  first ${warm[0]!.toFixed(1)} ms  last warm call: ${warmBpe}`,
    );
  }
  console.log(
    [
      `warm trim at 50%, content cache ${process.env['TRIM_CONTENT_CACHE'] === 'off' ? 'off' : 'on'}, ${files.length} transcripts from ${folder}`,
      ...rows,
      `median over transcripts: warm ${median(warmMedians).toFixed(2)} ms, reparsed ${median(reparsedMedians).toFixed(2)} ms`,
    ].join('\n'),
  );
});
