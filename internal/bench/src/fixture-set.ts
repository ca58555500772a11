import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Message } from '@ollm/core';
import { readTranscript } from '@ollm/transcripts';

export type FixtureKind = 'swe-agent' | 'tau-bench';

/** One conversation of a fixture file, with the ground truth its probes come from. */
export interface BenchConversation {
  /** `django__django-11999` or `task-3-trial-0`. */
  readonly id: string;
  readonly kind: FixtureKind;
  /** The file it came from (relative to the fixtures folder). */
  readonly file: string;
  readonly messages: readonly Message[];
  /** The source entry: a SWE-agent trajectory document or one tau-bench run. */
  readonly source: unknown;
  /** SWE-agent only: the SWE-bench harness report (`reports/<id>.report.json`), when present. */
  readonly report?: unknown;
  /** SWE-agent only: the trajectory's final patch (`info.submission`, a git diff), when it has one. */
  readonly submission?: string;
}

export interface FixtureFile {
  readonly file: string;
  readonly kind: FixtureKind;
  readonly conversations: readonly BenchConversation[];
}

export interface FixtureSet {
  readonly folder: string;
  /** Which copy was used: the shared set beside the repository, the repository's own sample, or `--fixtures DIR`. */
  readonly origin: 'shared' | 'repository' | 'given';
  readonly files: readonly FixtureFile[];
}

/** The repository root, from this file's location (`internal/bench/{src,dist}/`). */
export const REPOSITORY_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** `../shared/fixtures` when it exists (all of it), else the repository's `fixtures/`. */
export function defaultFixtureFolder(): { folder: string; origin: FixtureSet['origin'] } {
  const shared = resolve(REPOSITORY_ROOT, '..', 'shared', 'fixtures');
  if (existsSync(join(shared, 'swe-agent-django'))) return { folder: shared, origin: 'shared' };
  return { folder: join(REPOSITORY_ROOT, 'fixtures'), origin: 'repository' };
}

/** A SWE-agent trajectory's `info.submission`: the git diff it submitted (empty or absent when it gave up). */
export function submissionOf(document: unknown): string | undefined {
  const info = (document as { info?: { submission?: unknown } } | null)?.info;
  return typeof info?.submission === 'string' && info.submission.trim() !== '' ? info.submission : undefined;
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8')) as unknown;
}

export interface LoadFixturesOptions {
  readonly folder: string;
  readonly origin: FixtureSet['origin'];
  /** Keep at most this many SWE-agent files (smallest first when limited) and tau-bench runs. */
  readonly maximumSweAgentFiles?: number;
  readonly maximumTauBenchRuns?: number;
}

/** Reads the SWE-agent trajectories and tau-bench files of a fixtures folder with @ollm/transcripts. */
export async function loadFixtures(options: LoadFixturesOptions): Promise<FixtureSet> {
  const files: FixtureFile[] = [];
  const sweFolder = join(options.folder, 'swe-agent-django');
  if (existsSync(sweFolder)) {
    let names = readdirSync(sweFolder)
      .filter((name) => name.endsWith('.traj.json'))
      .sort();
    if (options.maximumSweAgentFiles !== undefined) {
      // Smallest first: a quick run should be quick.
      const size = (name: string) => readFileSync(join(sweFolder, name)).length;
      names = names
        .map((name) => [name, size(name)] as const)
        .sort((a, b) => a[1] - b[1])
        .slice(0, options.maximumSweAgentFiles)
        .map(([name]) => name)
        .sort();
    }
    for (const name of names) {
      const transcript = await readTranscript(join(sweFolder, name), { format: 'swe-agent' });
      const conversation = transcript.conversations[0]!;
      const id = basename(name, '.traj.json');
      const reportPath = join(sweFolder, 'reports', `${id}.report.json`);
      const submission = submissionOf(transcript.document);
      files.push({
        file: `swe-agent-django/${name}`,
        kind: 'swe-agent',
        conversations: [
          {
            id,
            kind: 'swe-agent',
            file: `swe-agent-django/${name}`,
            messages: conversation.messages,
            source: transcript.document,
            ...(existsSync(reportPath) ? { report: readJson(reportPath) } : {}),
            ...(submission !== undefined ? { submission } : {}),
          },
        ],
      });
    }
  }
  const tauFolder = join(options.folder, 'tau-bench-airline');
  if (existsSync(tauFolder)) {
    for (const name of readdirSync(tauFolder)
      .filter((entry) => entry.endsWith('.json'))
      .sort()) {
      const transcript = await readTranscript(join(tauFolder, name), { format: 'tau-bench' });
      const runs = transcript.document as unknown[];
      let conversations: BenchConversation[] = transcript.conversations.map((conversation, index) => ({
        id: conversation.id,
        kind: 'tau-bench' as const,
        file: `tau-bench-airline/${name}`,
        messages: conversation.messages,
        source: runs[index],
      }));
      if (options.maximumTauBenchRuns !== undefined) conversations = conversations.slice(0, options.maximumTauBenchRuns);
      files.push({ file: `tau-bench-airline/${name}`, kind: 'tau-bench', conversations });
    }
  }
  return { folder: options.folder, origin: options.origin, files };
}

export function allConversations(set: FixtureSet): BenchConversation[] {
  return set.files.flatMap((file) => file.conversations);
}
