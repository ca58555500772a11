import { isCheckpointMessage } from '@ollm/core';
import type { Message } from '@ollm/core';
import type { ContextManager } from '@ollm/runtime';

/** Tokens of the context sent to the model, by what they are. */
export interface BudgetBreakdown {
  readonly system: number;
  /** The goal block the goal manager keeps in the system message (0 without a goal). */
  readonly goal: number;
  /** The user messages the window guard folded out, quoted in the system message. */
  readonly quotes: number;
  readonly checkpoints: number;
  readonly user: number;
  readonly assistant: number;
  readonly tool: number;
}

/**
 * Splits what `messagesForModel()` costs into system prompt, goal block, checkpoints and the
 * conversation by role, scaled by the calibration learned from the server's reported counts (as
 * the budget is), so the parts add up to the status line's total give or take rounding.
 */
export async function budgetBreakdown(manager: ContextManager): Promise<BudgetBreakdown> {
  const ratio = manager.calibrationRatio;
  const scaled = (tokens: number) => Math.round(tokens * ratio);
  const systemPrompt = manager.state().systemPrompt;
  const systemAlone = systemPrompt.length > 0 ? manager.tokens.countMessage(textMessage(systemPrompt)) : 0;
  const systemMessage = manager.systemMessage();
  const systemWithGoal = systemMessage ? manager.tokens.countMessage(systemMessage) : 0;
  const counts = { system: 0, checkpoints: 0, user: 0, assistant: 0, tool: 0 };
  for (const message of manager.activeMessages) {
    const tokens = manager.tokens.countMessage(message);
    if (isCheckpointMessage(message)) counts.checkpoints += tokens;
    else counts[message.role] += tokens;
  }
  // The system message is the prompt, the goal block and the folded quotes: the goal block counted
  // on its own, the quotes as the rest, so a session without a goal shows no goal tokens.
  const block = manager.goals.render();
  const goal = block.length > 0 ? Math.min(Math.max(0, systemWithGoal - systemAlone), manager.tokens.countText(block)) : 0;
  return {
    system: scaled(systemAlone + counts.system),
    goal: scaled(goal),
    quotes: scaled(Math.max(0, systemWithGoal - systemAlone - goal)),
    checkpoints: scaled(counts.checkpoints),
    user: scaled(counts.user),
    assistant: scaled(counts.assistant),
    tool: scaled(counts.tool),
  };
}

function textMessage(text: string): Message {
  return { id: 'ollm-system', role: 'system', parts: [{ type: 'text', text }], pinned: true };
}
