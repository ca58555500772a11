import { messageText, type GoalState, type Message } from '@ollm/core';
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
export function goalFromMessages(messages: readonly Message[], format?: string): TranscriptGoal | undefined {
  const fromUser = new GoalManager();
  const userMessages = messages.filter((message) => message.role === 'user');
  const usersOwn = format !== undefined && OBSERVATION_USER_FORMATS.has(format) ? userMessages.slice(0, 1) : userMessages;
  for (const message of usersOwn) fromUser.applyMarkers(messageText(message), 'user');
  if (fromUser.state) return { state: fromUser.state, source: 'user' };
  const fromModel = new GoalManager();
  for (const message of messages) if (message.role === 'assistant') fromModel.applyMarkers(messageText(message), 'assistant');
  return fromModel.state ? { state: fromModel.state, source: 'assistant' } : undefined;
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
