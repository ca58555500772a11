import type { TokenCounting } from '../tokens/token-counting.js';
import type { LanguageModel } from '../model/language-model.js';

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
}

/** The goal state a goal-aware provider reads (rendered by the runtime's goal manager). */
export interface GoalState {
  readonly description: string;
  readonly checkpoints: readonly { description: string; status: 'completed' | 'in-progress' | 'pending' }[];
  readonly decisions: readonly { description: string; locked: boolean }[];
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
