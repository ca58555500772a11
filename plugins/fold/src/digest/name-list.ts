import { coveredNames } from '../identifiers/extract-identifiers.js';

/** What choosing names reads of a conversation's name index. */
export interface NameRanking {
  /** Names that system and user messages show: never worth listing. */
  readonly alwaysVisible: ReadonlySet<string>;
  /** `rank(names).slice(0, max)`: `names` best first, at most `max`. */
  rankTop(names: readonly string[], max: number): string[];
}

/**
 * Picks the names of a folded text worth listing, best first, at most `max`, leaving out those in
 * `visible` (what the folded text itself still shows). Renderings read the conversation only
 * through this, so a rendering can be kept as long as every choice it made would be made again.
 */
export interface NameLister {
  list(names: Iterable<string>, visible: ReadonlySet<string>, max: number): string[];
}

/**
 * One choice of names, kept with its answer. `candidates` depend only on the text folded; what
 * was chosen from them depends on the conversation (what system and user messages show, how
 * much each name is worth), so the choice is made again, cheaply, to tell whether it still holds.
 */
export interface NameChoice {
  readonly candidates: readonly string[];
  readonly max: number;
  /** Positions in `candidates` of the names system and user messages showed. */
  readonly hidden: readonly number[];
  /** The set those names were read from (a conversation with the same system and user messages has the same set). */
  readonly hiddenBy: ReadonlySet<string>;
  /** The candidates neither shown nor covered by a longer path among them. */
  readonly eligible: readonly string[];
  readonly chosen: readonly string[];
}

function hiddenPositions(candidates: readonly string[], alwaysVisible: ReadonlySet<string>): number[] {
  const hidden: number[] = [];
  for (let position = 0; position < candidates.length; position++) if (alwaysVisible.has(candidates[position]!)) hidden.push(position);
  return hidden;
}

function eligibleNames(candidates: readonly string[], hidden: readonly number[]): string[] {
  const skip = new Set(hidden);
  const shown = hidden.length === 0 ? candidates : candidates.filter((_, position) => !skip.has(position));
  const covered = coveredNames(shown);
  return covered.size === 0 ? [...shown] : shown.filter((name) => !covered.has(name));
}

/** The names worth listing among `candidates` (already without what the folded text shows). */
export function chooseNames(candidates: readonly string[], max: number, index: NameRanking): NameChoice {
  const hidden = hiddenPositions(candidates, index.alwaysVisible);
  const eligible = eligibleNames(candidates, hidden);
  return { candidates, max, hidden, hiddenBy: index.alwaysVisible, eligible, chosen: index.rankTop(eligible, max) };
}

function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let position = 0; position < a.length; position++) if (a[position] !== b[position]) return false;
  return true;
}

/** True when `index` would choose exactly what `choice` chose. */
export function stillChosen(choice: NameChoice, index: NameRanking): boolean {
  const hidden = choice.hiddenBy === index.alwaysVisible ? choice.hidden : hiddenPositions(choice.candidates, index.alwaysVisible);
  const eligible = sameList(hidden, choice.hidden) ? choice.eligible : eligibleNames(choice.candidates, hidden);
  return sameList(index.rankTop(eligible, choice.max), choice.chosen);
}

function candidatesOf(names: Iterable<string>, visible: ReadonlySet<string>): string[] {
  return [...new Set(names)].filter((name) => !visible.has(name));
}

/**
 * The names of `names` worth listing, best first, at most `max`: not already in view (`visible`,
 * which the kept text shows, and the names system and user messages show) and not shown by a
 * longer path listed.
 */
export function namesToList(names: Iterable<string>, index: NameRanking, visible: ReadonlySet<string>, max: number): string[] {
  return [...chooseNames(candidatesOf(names, visible), max, index).chosen];
}

/** A lister that asks `index` directly. */
export function listerOf(index: NameRanking): NameLister {
  return { list: (names, visible, max) => namesToList(names, index, visible, max) };
}

/** A lister that asks `index` and keeps every choice made, in order. */
export class RecordingLister implements NameLister {
  readonly choices: NameChoice[] = [];

  constructor(private readonly index: NameRanking) {}

  list(names: Iterable<string>, visible: ReadonlySet<string>, max: number): string[] {
    const choice = chooseNames(candidatesOf(names, visible), max, this.index);
    this.choices.push(choice);
    return [...choice.chosen];
  }
}
