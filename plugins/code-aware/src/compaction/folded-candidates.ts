import type { Message, MessagePart } from '@ollm/core';
import type { FoldPlan } from '../folding/fold-plan.js';
import type { CodeView } from '../views/code-view.js';

/** What one fold step's text is made from: the original part and, per view, its plan and kept rows. */
export interface FoldInputs {
  readonly originalPart: MessagePart;
  readonly partIndex: number;
  readonly level: string;
  readonly recovery: string;
  readonly latestAt: number | undefined;
  readonly views: readonly { readonly view: CodeView; readonly plan: FoldPlan; readonly keptRows: ReadonlySet<number> }[];
}

/** Candidates remembered per message they edit; a few per message (one per part and level tried). */
const made = new WeakMap<Message, { readonly inputs: FoldInputs; readonly candidate: Message }[]>();
const PER_MESSAGE = 8;

/**
 * The message `current` with one part folded: the one made last time from the same inputs (the
 * same objects: views, plans and kept rows are remembered by content), else `make()`'s. Folding
 * an unchanged conversation again then gives the same messages, so what the host and later stages
 * remember by object (token counts, canonical forms) still holds, and the text is not rendered again.
 */
export function foldedCandidate(current: Message, inputs: FoldInputs, make: () => Message): Message {
  const known = made.get(current);
  const found = known?.find((entry) => sameInputs(entry.inputs, inputs));
  if (found !== undefined) return found.candidate;
  const candidate = make();
  const entries = known ?? [];
  entries.push({ inputs, candidate });
  if (entries.length > PER_MESSAGE) entries.shift();
  made.set(current, entries);
  return candidate;
}

function sameInputs(a: FoldInputs, b: FoldInputs): boolean {
  if (a.originalPart !== b.originalPart || a.partIndex !== b.partIndex || a.level !== b.level) return false;
  if (a.recovery !== b.recovery || a.latestAt !== b.latestAt || a.views.length !== b.views.length) return false;
  return a.views.every((view, index) => {
    const other = b.views[index]!;
    // A reference reads no plan (it is made afresh each time): only the view and the rows count.
    return view.view === other.view && (a.level === 'reference' || view.plan === other.plan) && view.keptRows === other.keptRows;
  });
}
