import { messageText, parseGoalBlock, type GoalState, type Message } from '@ollm/core';
import { GoalManager } from '@ollm/runtime';

/** The goal a transcript's marker lines set, and who set it. */
export interface TranscriptGoal {
  readonly state: GoalState;
  /** `user`: markers in user messages (they outrank the model's); `assistant`: only the model's markers set one. */
  readonly source: 'user' | 'assistant';
}

/**
 * Formats whose user messages after the first are the environment's answers to the agent (an
 * agent trajectory: SWE-agent's observations are user-role messages), not a person's words.
 */
const OBSERVATION_USER_FORMATS: ReadonlySet<string> = new Set(['swe-agent', 'swe-agent-classic']);

/**
 * Reads the goal markers (`[GOAL] …`, `[DECISION] … - LOCKED`, `[CHECKPOINT] …`, `[ARTIFACT] …`,
 * `[NEXT] …`) of a transcript through the runtime's goal manager, as a live session would have.
 * Markers in user messages come first and outrank the model's: the model's markers are read only
 * when no user message sets a goal. Tool output is never read (anything can be quoted there): in
 * an agent trajectory whose observations are user messages (`format` SWE-agent), only the first
 * user message, the task, is the user's.
 */
export function goalFromMessages(messages: readonly Message[], format?: string, document?: unknown): TranscriptGoal | undefined {
  // The goal ollm kept for the session already holds what the markers did.
  const recorded = recordedGoal(messages, document);
  if (recorded) return { state: recorded, source: recorded.setBy === 'model' ? 'assistant' : 'user' };
  const fromUser = new GoalManager();
  const userMessages = messages.filter((message) => message.role === 'user');
  const usersOwn = format !== undefined && OBSERVATION_USER_FORMATS.has(format) ? userMessages.slice(0, 1) : userMessages;
  for (const message of usersOwn) fromUser.applyMarkers(messageText(message), 'user');
  if (fromUser.state) return { state: fromUser.state, source: 'user' };
  const fromModel = new GoalManager();
  for (const message of messages) if (message.role === 'assistant') fromModel.applyMarkers(messageText(message), 'assistant');
  return fromModel.state ? { state: fromModel.state, source: 'assistant' } : undefined;
}

/**
 * The goal ollm itself recorded for the conversation: the active one of an exported session's
 * `goals` (`ollm sessions export`), else the goal block (`ACTIVE GOAL: …`) of a system message, as
 * the chat sends it and any transcript of such a request holds it.
 */
export function recordedGoal(messages: readonly Message[], document?: unknown): GoalState | undefined {
  const exported = exportedGoals(document).filter((goal) => (goal.status ?? 'active') === 'active');
  if (exported.length > 0) return exported.at(-1);
  for (const message of messages) {
    if (message.role !== 'system') continue;
    const block = parseGoalBlock(messageText(message));
    if (block && (block.status ?? 'active') === 'active') return block;
  }
  return undefined;
}

/** The `goals` of an exported session document (each a goal's last recorded state); none for other documents. */
function exportedGoals(document: unknown): GoalState[] {
  if (document === null || typeof document !== 'object' || !Array.isArray((document as { goals?: unknown }).goals)) return [];
  return (document as { goals: unknown[] }).goals.filter(isGoalState);
}

function isGoalState(value: unknown): value is GoalState {
  if (value === null || typeof value !== 'object') return false;
  const goal = value as Record<string, unknown>;
  return typeof goal.description === 'string' && Array.isArray(goal.checkpoints) && Array.isArray(goal.decisions) && Array.isArray(goal.artifacts);
}

/** What of the goal the compacted messages still show word for word: the goal and each locked decision. */
export function goalKept(goal: GoalState, output: readonly Message[]): { goal: boolean; lockedDecisions: { description: string; kept: boolean }[] } {
  const text = output.map(messageText).join('\n');
  return {
    goal: text.includes(goal.description),
    lockedDecisions: goal.decisions
      .filter((decision) => decision.locked)
      .map((decision) => ({ description: decision.description, kept: text.includes(decision.description) })),
  };
}
