import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Message } from '@ollm/core';
import { Language, Parser } from 'web-tree-sitter';
import { REPOSITORY_ROOT } from '../fixture-set.js';
import type { SpeedContender } from './speed-contender.js';

/** The recorder a code-parse contender spawns: the built one, also when the bench runs from its sources (tests). */
export const RECORD_PARSES_SCRIPT = join(REPOSITORY_ROOT, 'internal', 'bench', 'dist', 'speed', 'record-parses.js');

let started: Promise<void> | undefined;
const languages = new Map<string, Promise<Language>>();

/** tree-sitter's runtime, started once per process (`Parser.init` may not run twice). */
function treeSitter(): Promise<void> {
  started ??= Parser.init();
  return started;
}

function languageAt(grammar: string): Promise<Language> {
  let language = languages.get(grammar);
  if (!language) {
    language = treeSitter().then(() => Language.load(grammar));
    languages.set(grammar, language);
  }
  return language;
}

/**
 * One tree-sitter parse of each code text `mask,code-aware,trim` parses on the conversation: what
 * a compaction that folds code by its syntax does beyond the floor, at least. The texts are
 * recorded in another process (record-parses.ts), after the conversations prepared before this
 * one, so the pipeline's work warms nothing here; the grammars load untimed, and a process's first
 * timed call (the warm-up transcript's) parses as the pipeline's first call would. For new
 * processes, fresh only; the bench's "floor + parse" is this plus the floor, per transcript.
 */
export function codeParseContender(): SpeedContender {
  const earlier: { messages: readonly Message[]; limit: number }[] = [];
  return {
    name: 'code-parse',
    label: 'one tree-sitter parse of the code the pipeline parses',
    family: 'floor',
    modes: ['fresh'],
    async prepare(messages, limit) {
      const run = spawnSync(process.execPath, [RECORD_PARSES_SCRIPT], {
        input: JSON.stringify({ earlier, messages, limit }),
        encoding: 'utf8',
        maxBuffer: 512 * 2 ** 20,
      });
      if (run.status !== 0) throw new Error(`${RECORD_PARSES_SCRIPT} failed (exit ${run.status}): ${(run.stderr ?? '').trim().slice(-300)}`);
      earlier.push({ messages, limit });
      const recorded = JSON.parse(run.stdout) as { grammar: string; text: string }[];
      const parses = await Promise.all(recorded.map(async ({ grammar, text }) => ({ language: await languageAt(grammar), text })));
      await treeSitter();
      const parser = new Parser();
      return {
        arm: () => () => {
          let nodes = 0;
          for (const { language, text } of parses) {
            if (parser.language !== language) parser.setLanguage(language);
            const tree = parser.parse(text);
            nodes += tree?.rootNode.childCount ?? 0;
            tree?.delete();
          }
          return { parses: parses.length, nodes };
        },
      };
    },
  };
}
