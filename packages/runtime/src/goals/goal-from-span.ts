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
  const kept = new Map(after.map((message) => [message.id, message]));
  const earlier = new Map(before.map((message) => [message.id, message]));
  const compacted = before.filter((message) => !sameMessage(message, kept.get(message.id)));
  const written = after.filter((message) => !sameMessage(message, earlier.get(message.id)));
  const applied: GoalUpdate[] = [];
  const proposals: MarkerOutcome['proposals'] = [];
  const read = (text: string) => {
    const outcome = goals.applyMarkers(text, 'assistant');
    applied.push(...outcome.applied);
    proposals.push(...outcome.proposals);
  };
  for (const message of compacted) if (message.role === 'assistant') read(messageText(message));
  for (const artifact of toolCallArtifacts(compacted)) {
    const update: GoalUpdate = { kind: 'artifact', action: artifact.action, path: artifact.path };
    if (goals.apply(update, 'model')) applied.push(update);
  }
  if (usedModel) for (const message of written) if (message.role !== 'tool') read(messageText(message));
  return { applied: applied.filter((update, index) => applied.findIndex((other) => sameUpdate(other, update)) === index), proposals };
}

function sameMessage(a: Message, b: Message | undefined): boolean {
  return b !== undefined && (a === b || (a.role === b.role && JSON.stringify(a.parts) === JSON.stringify(b.parts)));
}

function sameUpdate(a: GoalUpdate, b: GoalUpdate): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
