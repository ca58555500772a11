import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPOSITORY_ROOT } from '../fixture-set.js';
import { median } from '../measure.js';
import { interleavedOrder } from './interleaved-order.js';

/** The probe a new process runs: the built one, also when the bench itself runs from its sources (tests). */
export const FIRST_CALL_SCRIPT = join(REPOSITORY_ROOT, 'internal', 'bench', 'dist', 'speed', 'first-call.js');

/**
 * `cold`: a new process's first compaction (nothing compiled, tables loaded inside it).
 * `fresh`: a new process that compacted another transcript first, then this one: the code
 * compiled, but nothing of this conversation in any cache (the truly fresh counter).
 */
export type ProcessKind = 'cold' | 'fresh';

export interface ProcessTranscript {
  readonly id: string;
  /** The transcript file and its format, as the child reads it. */
  readonly path: string;
  readonly format: string;
  readonly tokens: number;
}

/** One contender's first compaction of a transcript in a new `node` process. */
export interface ProcessCase {
  readonly conversation: string;
  readonly tokensBefore: number;
  readonly contender: string;
  readonly kind: ProcessKind;
  /** Loading the contender's modules and @ollm/transcripts. */
  readonly importMs?: number;
  /** The first run on this transcript, fresh counter. */
  readonly firstCallMs?: number;
  /** A second run in the same process. */
  readonly secondCallMs?: number;
  /** Processes run (the figures above are their medians). */
  readonly samples?: number;
  readonly error?: string;
}

export interface ProcessOptions {
  readonly budget: number;
  /** Processes per contender, kind and transcript, in interleaved rounds (default 1): a single process on a shared machine is noise. */
  readonly rounds?: number;
  readonly timeoutSeconds: number;
  /** The transcript a `fresh` process compacts first (another one, never the one measured). */
  readonly warmUpFor: (transcript: ProcessTranscript) => ProcessTranscript;
  /** Contenders timed in fresh processes only (the code parse: its set-up records what the pipeline parses). */
  readonly freshOnly?: readonly string[];
  readonly onConversation?: (done: number, total: number) => void;
}

interface FirstCallOutput {
  importMs: number;
  firstCallMs: number;
  secondCallMs: number;
}

function spawnProbe(contender: string, transcript: ProcessTranscript, budget: number, warmUp: ProcessTranscript | undefined, timeoutSeconds: number) {
  const limit = (entry: ProcessTranscript) => String(Math.floor(entry.tokens * budget));
  const args = [FIRST_CALL_SCRIPT, contender, transcript.path, transcript.format, limit(transcript), ...(warmUp ? [warmUp.path, limit(warmUp)] : [])];
  return spawnSync(process.execPath, args, { encoding: 'utf8', timeout: timeoutSeconds * 1000, maxBuffer: 16 * 2 ** 20 });
}

/**
 * `rounds` probes per contender, kind and transcript, each a new process: round after round,
 * for each transcript the cold ones, then the fresh ones, the contenders' order rotating from one
 * transcript and one round to the next. A case holds the medians of its probes, or the first error.
 */
export function measureProcesses(transcripts: readonly ProcessTranscript[], contenders: readonly string[], options: ProcessOptions): ProcessCase[] {
  const kinds: readonly ProcessKind[] = ['cold', 'fresh'];
  const rounds = Math.max(1, options.rounds ?? 1);
  const samples = new Map<string, { base: Omit<ProcessCase, 'importMs' | 'firstCallMs' | 'secondCallMs'>; outputs: FirstCallOutput[]; error?: string }>();
  for (let round = 0; round < rounds; round++) {
    for (const [index, transcript] of transcripts.entries()) {
      for (const kind of kinds) {
        for (const position of interleavedOrder(contenders.length, index + round * transcripts.length)) {
          const contender = contenders[position]!;
          if (kind === 'cold' && options.freshOnly?.includes(contender)) continue;
          const key = `${transcript.id}\u0000${contender}\u0000${kind}`;
          let entry = samples.get(key);
          if (entry === undefined) {
            entry = { base: { conversation: transcript.id, tokensBefore: transcript.tokens, contender, kind }, outputs: [] };
            samples.set(key, entry);
          }
          if (entry.error !== undefined) continue;
          if (!existsSync(FIRST_CALL_SCRIPT)) {
            entry.error = `${FIRST_CALL_SCRIPT} is not built (pnpm --filter @ollm/bench build)`;
            continue;
          }
          const run = spawnProbe(contender, transcript, options.budget, kind === 'fresh' ? options.warmUpFor(transcript) : undefined, options.timeoutSeconds);
          const line = run.stdout?.trim().split('\n').pop();
          if (run.status !== 0 || !line) {
            entry.error = run.error ? run.error.message : `exit ${run.status}${run.signal ? ` (${run.signal})` : ''}: ${(run.stderr ?? '').trim().slice(-300)}`;
            continue;
          }
          entry.outputs.push(JSON.parse(line) as FirstCallOutput);
        }
      }
      options.onConversation?.(round * transcripts.length + index + 1, rounds * transcripts.length);
    }
  }
  return [...samples.values()].map(({ base, outputs, error }) =>
    error !== undefined
      ? { ...base, error }
      : {
          ...base,
          importMs: median(outputs.map((output) => output.importMs)),
          firstCallMs: median(outputs.map((output) => output.firstCallMs)),
          secondCallMs: median(outputs.map((output) => output.secondCallMs)),
          samples: outputs.length,
        },
  );
}
