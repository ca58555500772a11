/**
 * Where goal marker lines came from. `user`: the user's own words (`setGoal`, the chat's `/goal`,
 * a user message). `assistant` and `tool`: text the model wrote or a tool returned, which can
 * repeat anything it read (a hostile README, a web page), so its markers carry no authority.
 */
export type MarkerSource = 'user' | 'assistant' | 'tool';

/**
 * What `[GOAL]` and `[DECISION] … - LOCKED` markers in model or tool output may do (config
 * `goals.modelMarkers`, ContextManager option `goalMarkers`):
 * - `apply-when-unset` (the default): a goal applied while the user has set none; once they
 *   have, shown as a proposal and not applied. A locked decision is never applied: it is kept as
 *   the model's proposal (`by: 'model'`, shown apart) until the user locks it;
 * - `propose`: never applied, always shown as a proposal;
 * - `apply`: applied, even over the user's goal (ollm 0.1's behaviour), and shown;
 * - `ignore`: every marker in model or tool output is ignored, progress markers too.
 * Progress markers (`[CHECKPOINT]`, an open `[DECISION]`, `[ARTIFACT]`, `[NEXT]`) from the model
 * are applied under every policy but `ignore`. Markers from the user always apply.
 */
export type ModelMarkerPolicy = 'apply-when-unset' | 'propose' | 'apply' | 'ignore';

export const MODEL_MARKER_POLICIES: readonly ModelMarkerPolicy[] = ['apply-when-unset', 'propose', 'apply', 'ignore'];
export const DEFAULT_MODEL_MARKER_POLICY: ModelMarkerPolicy = 'apply-when-unset';

/**
 * A goal or a locked decision the model (or a tool output) wrote, and what became of it: shown to
 * the user either way, once per goal.
 */
export interface GoalProposal {
  readonly kind: 'goal' | 'locked-decision';
  readonly description: string;
  readonly source: Exclude<MarkerSource, 'user'>;
  readonly applied: boolean;
  /**
   * Why it was not applied: the user has set a goal (`apply-when-unset`), the policy is `propose`,
   * or it is a lock, which only the user makes (`user-locks`: every policy but `apply`).
   */
  readonly reason?: 'user-goal' | 'policy' | 'user-locks';
}

/**
 * Whether a goal or lock marker from the model applies under `policy`, given whether the user
 * has set the current goal: `apply`, `propose` (shown, not applied) or `ignore`.
 */
export function decideModelMarker(
  policy: ModelMarkerPolicy,
  userGoalSet: boolean,
): { action: 'apply' } | { action: 'ignore' } | { action: 'propose'; reason: 'user-goal' | 'policy' } {
  switch (policy) {
    case 'apply':
      return { action: 'apply' };
    case 'ignore':
      return { action: 'ignore' };
    case 'propose':
      return { action: 'propose', reason: 'policy' };
    case 'apply-when-unset':
      return userGoalSet ? { action: 'propose', reason: 'user-goal' } : { action: 'apply' };
  }
}
