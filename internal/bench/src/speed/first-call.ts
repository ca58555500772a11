/**
 * A new process's first compaction of a transcript, for the speed section (spawned by
 * process-workload.ts):
 *
 *   node internal/bench/dist/speed/first-call.js CONTENDER FILE FORMAT LIMIT [WARM_UP_FILE WARM_UP_LIMIT]
 *
 * Loads only the contender's modules and reads the transcript (and converts it, for a peer).
 * Without a warm-up file it times the cold process's first run: nothing compiled, the tokenizer
 * tables loaded inside it. With one, it first compacts that other transcript (untimed: the code
 * compiled, the tables loaded), then times the first run on FILE: a conversation no cache has
 * seen, in a warm process. Either way a fresh counter, armed inside the timing. Then a second
 * run. Prints one JSON line: {importMs, readMs, warmUpMs, firstCallMs, secondCallMs}.
 */
import type { TranscriptFormat } from '@ollm/transcripts';

const started = performance.now();
const [name, file, format, limitText, warmUpFile, warmUpLimitText] = process.argv.slice(2);
const usable = (text: string | undefined) => text !== undefined && Number(text) >= 0;
if (!name || !file || !format || !usable(limitText) || (warmUpFile !== undefined && !usable(warmUpLimitText))) {
  process.stderr.write('usage: first-call.js CONTENDER FILE FORMAT LIMIT [WARM_UP_FILE WARM_UP_LIMIT]\n');
  process.exit(2);
}
const { loadContender } = await import('./contender-catalog.js');
const contender = await loadContender(name);
const { readTranscript } = await import('@ollm/transcripts');
const importMs = performance.now() - started;

async function prepared(path: string, limit: number) {
  const transcript = await readTranscript(path, { format: format as TranscriptFormat });
  return contender.prepare(transcript.conversations[0]!.messages, limit);
}

async function time(run: Awaited<ReturnType<typeof prepared>>): Promise<number> {
  // Armed inside the timing: the counter it creates loads the tokenizer tables in a cold process.
  const callStarted = performance.now();
  const result = run.arm('fresh')();
  if (result instanceof Promise) await result;
  return performance.now() - callStarted;
}

const readStarted = performance.now();
const target = await prepared(file, Number(limitText));
const readMs = performance.now() - readStarted;
const warmUpMs = warmUpFile === undefined ? undefined : await time(await prepared(warmUpFile, Number(warmUpLimitText)));
const firstCallMs = await time(target);
const secondCallMs = await time(target);
process.stdout.write(`${JSON.stringify({ importMs, readMs, warmUpMs, firstCallMs, secondCallMs })}\n`);
