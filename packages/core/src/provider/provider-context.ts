import type { TokenCounting } from '../tokens/token-counting.js';
import type { LanguageModel } from '../model/language-model.js';

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
}

/** The goal state a goal-aware provider reads (rendered by the runtime's goal manager). */
/** How much a goal matters against others: the design's three levels; a goal without one is `medium`. */
export type GoalPriority = 'high' | 'medium' | 'low';

/**
 * Where a goal stands: `active` (the one in the system prompt), `completed` (done: `/goal done`),
 * `abandoned` (dropped, or replaced by another goal before it was done).
 */
export type GoalStatus = 'active' | 'completed' | 'abandoned';

export interface GoalState {
  /** A stable id (`goal-` and 8 hex digits). Missing in states saved before goals had one. */
  readonly id?: string;
  readonly description: string;
  /** Missing: `medium`. */
  readonly priority?: GoalPriority;
  /** Missing: `active`. */
  readonly status?: GoalStatus;
  /** When the goal was set (ISO 8601). */
  readonly createdAt?: string;
  /** When it was completed or abandoned (ISO 8601). */
  readonly completedAt?: string;
  readonly checkpoints: readonly { description: string; status: 'completed' | 'in-progress' | 'pending' }[];
  /**
   * `by`: who made the decision: the user (`/decision`, their marker lines; missing: the user's, as
   * states saved before it was recorded) or the model (a marker in a reply: a proposal until the
   * user confirms it, shown apart in the goal block).
   */
  readonly decisions: readonly { description: string; locked: boolean; by?: 'user' | 'model' }[];
  readonly artifacts: readonly { action: 'created' | 'modified' | 'deleted'; path: string }[];
  readonly next?: string;
  /**
   * Who set the goal: `user` (`setGoal`, the chat's `/goal`, markers in user messages) or `model`
   * (a `[GOAL]` marker in a reply, applied as the runtime's `goalMarkers` policy allows). Missing in
   * states saved before it existed: read as the user's.
   */
  readonly setBy?: 'user' | 'model';
}

/** What the host injects into `compress`: everything a provider needs, nothing global. */
export interface ProviderContext {
  readonly tokens: TokenCounting;
  readonly model?: LanguageModel;
  readonly abortSignal?: AbortSignal;
  readonly logger: Logger;
  readonly goal?: GoalState;
  /** Provider-private state carried between compressions of one conversation (e.g. checkpoints). */
  readonly state?: Map<string, unknown>;
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {} };
