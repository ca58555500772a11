import type { ContextBudget, Reliability, ReliabilityLevel } from '@ollm/core';
import type { Colors } from '../output/colors.js';
import { formatInteger } from '../output/format-number.js';

export interface StatusLineInput {
  readonly budget: ContextBudget;
  readonly reliability: Reliability;
  readonly compressions: number;
  /** The model-based provider automatic compression ends with (`--provider`). */
  readonly provider: string;
}

/**
 * `Context: 5,234/13,600 (65%) · reliability medium · 2 compressions · provider goal-aware`:
 * tokens sent to the model (system prompt, goal, checkpoints and conversation, calibrated by the
 * server's counts) over the window.
 */
export function formatStatusLine(input: StatusLineInput): string {
  const { budget } = input;
  const percent = budget.contextSize === 0 ? 0 : Math.round((budget.totalTokens / budget.contextSize) * 100);
  const compressions = `${input.compressions} compression${input.compressions === 1 ? '' : 's'}`;
  return `Context: ${formatInteger(budget.totalTokens)}/${formatInteger(budget.contextSize)} (${percent}%) · reliability ${input.reliability.level} · ${compressions} · provider ${input.provider}`;
}

/** Green while reliability is high, yellow at medium, red below. */
export function colorForLevel(colors: Colors, level: ReliabilityLevel): (text: string) => string {
  switch (level) {
    case 'high':
      return colors.green;
    case 'medium':
      return colors.yellow;
    case 'low':
      return colors.red;
    case 'critical':
      return (text) => colors.bold(colors.red(text));
  }
}
