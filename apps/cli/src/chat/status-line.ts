import type { ContextBudget, Reliability, ReliabilityLevel } from '@ollm/runtime';
import type { Colors } from '../output/colors.js';
import { formatInteger } from '../output/format-number.js';

export interface StatusLineInput {
  readonly budget: ContextBudget;
  readonly reliability: Reliability;
  readonly compactions: number;
  /** The model-based provider automatic compaction ends with (`--provider`). */
  readonly provider: string;
}

/**
 * `Context: 5,234/13,600 (38%) · reliability medium · 2 compactions · provider goal-aware`:
 * tokens the next request holds (system prompt, goal, checkpoints and conversation, calibrated by
 * the server's counts) over the most a request may hold (the window less the reply reserve).
 */
export function formatStatusLine(input: StatusLineInput): string {
  const { budget } = input;
  const percent = budget.requestLimit === 0 ? 0 : Math.round((budget.totalTokens / budget.requestLimit) * 100);
  const compactions = `${input.compactions} compaction${input.compactions === 1 ? '' : 's'}`;
  return `Context: ${formatInteger(budget.totalTokens)}/${formatInteger(budget.requestLimit)} (${percent}%) · reliability ${input.reliability.level} · ${compactions} · provider ${input.provider}`;
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
    case 'unknown':
      return colors.dim;
  }
}
