import { messageText, type GoalUpdate, type Message } from '@ollm/core';
import type { GoalManager, MarkerOutcome } from './goal-manager.js';
import { toolCallArtifacts } from './tool-call-artifacts.js';

/**
 * Updates the goal from what a compaction is about to take out of the context, as the design asks
 * of a compression (checkpoint status, new decisions, new artifacts): the files the compacted tool
 * calls wrote become artifacts; the marker lines of the compacted replies and of the summaries a
 * model wrote for them apply under the goal-marker policy (a model's summary saying `[CHECKPOINT]
 * … - COMPLETED` completes it; a `[GOAL]` from it only proposes while the user's goal is set).
 * Tool output is never read for markers. Nothing happens without a goal.
 */
export function updateGoalFromSpan(goals: GoalManager, before: readonly Message[], after: readonly Message[], usedModel: boolean): MarkerOutcome {
  if (!goals.state) return { applied: [], proposals: [] };
  // Only replies are read (their markers and tool calls) and only what a model wrote: tool results,
  // the largest content, are never compared, only scanned for the failed calls that wrote nothing.
  const kept = new Map(after.map((message) => [message.id, message]));
  const compacted = before.filter((message) => message.role === 'assistant' && !sameMessage(message, kept.get(message.id)));
  const earlier = usedModel ? new Map(before.map((message) => [message.id, message])) : undefined;
  const written = earlier ? after.filter((message) => message.role !== 'tool' && !sameMessage(message, earlier.get(message.id))) : [];
  const failedResults = before.filter((message) => message.parts.some((part) => part.type === 'tool-result' && part.isError === true));
  const applied: GoalUpdate[] = [];
  const proposals: MarkerOutcome['proposals'] = [];
  const read = (text: string) => {
    const outcome = goals.applyMarkers(text, 'assistant');
    applied.push(...outcome.applied);
    proposals.push(...outcome.proposals);
  };
  for (const message of compacted) read(messageText(message));
  for (const artifact of toolCallArtifacts([...compacted, ...failedResults])) {
    const update: GoalUpdate = { kind: 'artifact', action: artifact.action, path: artifact.path };
    if (goals.apply(update, 'model')) applied.push(update);
  }
  for (const message of written) read(messageText(message));
  return { applied: applied.filter((update, index) => applied.findIndex((other) => sameUpdate(other, update)) === index), proposals };
}

function sameMessage(a: Message, b: Message | undefined): boolean {
  return b !== undefined && (a === b || (a.role === b.role && JSON.stringify(a.parts) === JSON.stringify(b.parts)));
}

function sameUpdate(a: GoalUpdate, b: GoalUpdate): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
