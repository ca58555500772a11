import { InvalidArgumentError } from '../errors/invalid-argument-error.js';

/** A pipeline of provider names, parsed once from `mask,code-aware,trim` (spaces allowed). */
export interface Pipeline {
  readonly names: readonly string[];
  /** `mask,code-aware,trim`: how a pipeline is written and named. */
  readonly text: string;
}

/** Parses `a,b,c` (`''` is the empty pipeline); an empty name or a name given twice is an `InvalidArgumentError`. */
export function parsePipeline(text: string): Pipeline {
  if (text.trim() === '') return { names: [], text: '' };
  const names = text.split(',').map((name) => name.trim());
  if (names.some((name) => name.length === 0)) {
    throw new InvalidArgumentError({
      argument: 'pipeline',
      message: `"${text}" is not a pipeline: write provider names separated by commas, e.g. mask,code-aware,trim.`,
    });
  }
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated) throw new InvalidArgumentError({ argument: 'pipeline', message: `"${text}" names ${repeated} twice: each stage runs once.` });
  return { names, text: names.join(',') };
}
