import { fileNameOf, normalisePath, pathsMatch } from '../references/path-match.js';
import type { CodeView } from '../views/code-view.js';

/** What later views of the same file say about one view. */
export interface ViewHistory {
  /** No later view of the same file exists. */
  readonly latest: boolean;
  /**
   * Set when later views show every line of this one: the message index of the last of them
   * that shows any of its lines (the one a reference points to).
   */
  readonly supersededAt?: number;
}

/** File views by the file name of their path, in conversation order: only views in one group may match. */
export function byFileName(views: readonly CodeView[]): Map<string, CodeView[]> {
  const groups = new Map<string, CodeView[]>();
  for (const view of views) {
    const name = fileNameOf(view.path!);
    const group = groups.get(name);
    if (group) group.push(view);
    else groups.set(name, [view]);
  }
  return groups;
}

/** What the views after some point show of one spelling of a path. */
class LaterViews {
  any = false;
  /** Message index of the last whole-file view. */
  lastWhole: number | undefined;
  /** Line number -> message index of the last view that shows it. */
  readonly lastShown = new Map<number, number>();

  /** Adds a view that comes before every view added so far. */
  addEarlier(view: CodeView): void {
    this.any = true;
    if (view.wholeFile) this.lastWhole ??= view.messageIndex;
    for (const line of view.lines) {
      if (line.number !== undefined && !this.lastShown.has(line.number)) this.lastShown.set(line.number, view.messageIndex);
    }
  }
}

function historyOf(view: CodeView, matching: readonly LaterViews[]): ViewHistory {
  const later = matching.filter((views) => views.any);
  if (later.length === 0) return { latest: true };
  const numbers = view.lines.flatMap((line) => (line.number === undefined ? [] : [line.number]));
  // The last later view that shows any of this view's lines (a whole-file view shows them all).
  let supersededAt: number | undefined;
  const keep = (index: number | undefined): void => {
    if (index !== undefined && (supersededAt === undefined || index > supersededAt)) supersededAt = index;
  };
  for (const views of later) {
    keep(views.lastWhole);
    for (const number of numbers) keep(views.lastShown.get(number));
  }
  const wholeLater = later.some((views) => views.lastWhole !== undefined);
  // Most rows must carry numbers, or a later view cannot be shown to hold the same code.
  const numberedEnough = numbers.length > 0 && numbers.length >= view.lines.filter((line) => line.text.trim() !== '').length * 0.9;
  const covered = wholeLater || (numberedEnough && numbers.every((number) => later.some((views) => views.lastShown.has(number))));
  return covered && supersededAt !== undefined ? { latest: false, supersededAt } : { latest: false };
}

/**
 * The history of every file view: whether a later view of the same file exists, and whether later
 * views show all its lines again. One sweep from the end per file name, remembering per spelling
 * of the path the last view that showed each line: linear in the rows shown.
 */
export function viewHistories(groups: ReadonlyMap<string, readonly CodeView[]>): Map<CodeView, ViewHistory> {
  const histories = new Map<CodeView, ViewHistory>();
  for (const group of groups.values()) {
    const spellings = new Map<string, LaterViews>();
    for (const view of group) if (!spellings.has(normalisePath(view.path!))) spellings.set(normalisePath(view.path!), new LaterViews());
    // Spellings that name the same file (equal, or one a suffix of the other), by spelling.
    const matchingOf = new Map<string, LaterViews[]>();
    for (const spelling of spellings.keys()) {
      matchingOf.set(
        spelling,
        [...spellings].filter(([other]) => pathsMatch(other, spelling)).map(([, views]) => views),
      );
    }
    for (let index = group.length - 1; index >= 0; index--) {
      const view = group[index]!;
      const spelling = normalisePath(view.path!);
      histories.set(view, historyOf(view, matchingOf.get(spelling)!));
      spellings.get(spelling)!.addEarlier(view);
    }
  }
  return histories;
}
