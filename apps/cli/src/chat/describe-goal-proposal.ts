import type { GoalProposal, ModelMarkerPolicy } from '@ollm/runtime';

/** Longest goal or decision text a notice quotes. */
const QUOTED_LENGTH = 120;

/**
 * The one line the chat prints when a reply carried a `[GOAL]` or `[DECISION] … - LOCKED` marker,
 * applied or not (config `goals.modelMarkers`, here `policy`):
 * `the model proposed a goal: "…" (not applied: you set one; /goal to change it)`.
 */
export function describeGoalProposal(proposal: GoalProposal, policy: ModelMarkerPolicy): string {
  const text = `"${quoted(proposal.description)}"`;
  const from = proposal.source === 'tool' ? 'a tool output' : 'the model';
  if (proposal.kind === 'goal') {
    if (proposal.applied) {
      return policy === 'apply'
        ? `${from} set the goal: ${text} (goals.modelMarkers is "apply": the model's goal replaces yours; /goal TEXT to set it back)`
        : `${from} set the goal: ${text} (you have set none; /goal TEXT sets yours, which the model cannot replace)`;
    }
    return proposal.reason === 'user-goal'
      ? `${from} proposed a goal: ${text} (not applied: you set one; /goal to change it)`
      : `${from} proposed a goal: ${text} (not applied: goals.modelMarkers is "${policy}"; /goal TEXT sets a goal)`;
  }
  if (proposal.applied) return `${from} locked a decision: ${text} (kept in the goal block; /goal TEXT starts a goal of yours without it)`;
  if (proposal.reason === 'user-locks')
    return `${from} proposed a locked decision: ${text} (shown as its proposal: only you lock decisions, /decision lock TEXT)`;
  return proposal.reason === 'user-goal'
    ? `${from} proposed a locked decision: ${text} (kept as an open decision: the goal is yours)`
    : `${from} proposed a locked decision: ${text} (kept as an open decision: goals.modelMarkers is "${policy}")`;
}

/** The text on one line, without control characters, cut to `QUOTED_LENGTH`. */
function quoted(text: string): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return flat.length > QUOTED_LENGTH ? `${flat.slice(0, QUOTED_LENGTH - 1)}…` : flat;
}
