import { formatChange, formatInteger } from '../output/format-number.js';
import type { ConversationReport, GoalReport } from './compact-transcript.js';

export interface CompactSummaryOptions {
  readonly provider: string;
  readonly reports: readonly ConversationReport[];
  /** The folder removed pieces were saved to, as it should be shown (`~/.ollm/removed`). */
  readonly savedUnder: string;
  /** The `--out` file as it should be shown, when one was written. */
  readonly written?: string;
}

/**
 * The one line `ollm compact` prints on stderr:
 * `trim: 17,837 -> 8,912 tokens (-50.0%), 12 pieces saved under ~/.ollm/removed`.
 */
export function formatCompactSummary(options: CompactSummaryOptions): string {
  const { reports } = options;
  const before = reports.reduce((total, report) => total + report.tokensBefore, 0);
  const after = reports.reduce((total, report) => total + report.tokensAfter, 0);
  const saved = reports.reduce((total, report) => total + report.removed.filter((piece) => piece.path).length, 0);
  const missed = reports.filter((report) => report.tokensAfter > report.limit).length;
  const count = reports.length > 1 ? `${formatInteger(reports.length)} conversations, ` : '';
  const missedNote = missed === 0 ? '' : reports.length > 1 ? `; limit not reached in ${formatInteger(missed)}` : '; limit not reached';
  const written = options.written ? `; wrote ${options.written}` : '';
  const goals = reports.flatMap((report) => (report.goal ? [report.goal] : []));
  const goalNote = goals.length === 1 ? `\n${describeGoal(goals[0]!)}` : goals.length > 1 ? `\n${goals.length} conversations carry a goal (see --json)` : '';
  return (
    `${options.provider}: ${count}${formatInteger(before)} -> ${formatInteger(after)} tokens (${formatChange(before, after)}), ` +
    `${formatInteger(saved)} pieces saved under ${options.savedUnder}${missedNote}${written}${recoverNote(reports)}${goalNote}`
  );
}

/** Pieces named on the summary's second line: the reference the placeholders show, the rest in --json. */
const REFERENCES_SHOWN = 3;

/** `\nrecover one: ollm recover 0d81d2859b39 (also 1a2b3c4d5e6f, 9f8e7d6c5b4a; --json lists all 12)`. */
function recoverNote(reports: readonly ConversationReport[]): string {
  const references = [...new Set(reports.flatMap((report) => report.removed.filter((piece) => piece.path).map((piece) => piece.sha256.slice(0, 12))))];
  if (references.length === 0) return '';
  const [first, ...rest] = references;
  const shown = rest.slice(0, REFERENCES_SHOWN - 1);
  const pieces = reports.reduce((total, report) => total + report.removed.filter((piece) => piece.path).length, 0);
  const also =
    shown.length === 0 ? '' : ` (also ${shown.join(', ')}${references.length > REFERENCES_SHOWN ? `; --json lists all ${formatInteger(pieces)}` : ''})`;
  return `\nrecover one: ollm recover ${first}${also}`;
}

/** `goal (from user markers) kept: "Fix the parser"; locked decisions kept 1/1`. */
function describeGoal(goal: GoalReport): string {
  const locked = goal.lockedDecisions;
  const decisions = locked.length === 0 ? '' : `; locked decisions kept ${locked.filter((decision) => decision.kept).length}/${locked.length}`;
  const lost = locked.filter((decision) => !decision.kept).map((decision) => `"${decision.description}"`);
  return `goal (from ${goal.source} markers) ${goal.kept ? 'kept' : 'not in the output'}: "${goal.description}"${decisions}${lost.length > 0 ? ` (not kept: ${lost.join(', ')})` : ''}`;
}
