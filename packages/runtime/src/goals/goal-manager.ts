import {
  InvalidArgumentError,
  parseGoalMarker,
  renderGoalBlock,
  type ArtifactAction,
  type CheckpointStatus,
  type GoalPriority,
  type GoalState,
  type GoalUpdate,
} from '@ollm/core';
import { randomUUID } from 'node:crypto';
import {
  decideModelMarker,
  DEFAULT_MODEL_MARKER_POLICY,
  MODEL_MARKER_POLICIES,
  type GoalProposal,
  type MarkerSource,
  type ModelMarkerPolicy,
} from './model-marker-policy.js';

export interface GoalManagerOptions {
  /** What the model's `[GOAL]` and locked `[DECISION]` markers may do; default `apply-when-unset`. */
  readonly modelMarkers?: ModelMarkerPolicy;
  /** The time goals are stamped with (created, completed); tests inject one. Default the system clock. */
  readonly clock?: () => Date;
  /** The earlier goals of the session (completed, abandoned, replaced), oldest first. */
  readonly history?: readonly GoalState[];
}

/** Earlier goals a session keeps (oldest dropped first): enough for `/goal list`, bounded for the saved state. */
export const GOAL_HISTORY_LIMIT = 50;

const PRIORITIES: readonly GoalPriority[] = ['high', 'medium', 'low'];

/** What the marker lines of one text did: the changes applied, and the model's goals and locks to show. */
export interface MarkerOutcome {
  readonly applied: GoalUpdate[];
  /** New proposals only: one the user has already been shown for this goal is not repeated. */
  readonly proposals: GoalProposal[];
}

/**
 * Keeps the active goal: the user's (`setGoal`, markers in user messages) and what the markers in
 * the model's answers add to it. The user's goal outranks the model: a model's `[GOAL]` or
 * `[DECISION] … - LOCKED` applies only as `modelMarkers` allows (by default only while the user has
 * set no goal) and is otherwise recorded as a proposal for the user to see. The goal block it
 * renders goes into the system prompt and is never compacted.
 */
export class GoalManager {
  /** What the model's goal and lock markers may do (config `goals.modelMarkers`). */
  modelMarkers: ModelMarkerPolicy;
  private description: string | undefined;
  private id: string | undefined;
  private priority: GoalPriority = 'medium';
  private createdAt: string | undefined;
  private setBy: 'user' | 'model' = 'user';
  /** The earlier goals, oldest first, each with its final status. */
  private earlier: GoalState[] = [];
  private readonly clock: () => Date;
  private checkpoints: { description: string; status: CheckpointStatus }[] = [];
  private decisions: { description: string; locked: boolean; by?: 'user' | 'model' }[] = [];
  private artifacts: { action: ArtifactAction; path: string }[] = [];
  private next: string | undefined;
  /** Proposals already reported for the current goal (kind and text), so a repeated marker is shown once. */
  private reported = new Set<string>();

  constructor(state?: GoalState, options: GoalManagerOptions = {}) {
    const policy = options.modelMarkers ?? DEFAULT_MODEL_MARKER_POLICY;
    if (!MODEL_MARKER_POLICIES.includes(policy)) {
      throw new InvalidArgumentError({
        argument: 'goalMarkers',
        message: `Unknown goal marker policy ${JSON.stringify(policy)}: use ${MODEL_MARKER_POLICIES.map((name) => `"${name}"`).join(', ')}.`,
      });
    }
    this.modelMarkers = policy;
    this.clock = options.clock ?? (() => new Date());
    if (state) this.restore(state);
    if (options.history) this.restoreHistory(options.history);
  }

  /** The current goal, or undefined when none was set. */
  get state(): GoalState | undefined {
    if (this.description === undefined) return undefined;
    return {
      ...(this.id !== undefined ? { id: this.id } : {}),
      description: this.description,
      priority: this.priority,
      status: 'active',
      ...(this.createdAt !== undefined ? { createdAt: this.createdAt } : {}),
      checkpoints: this.checkpoints.map((checkpoint) => ({ ...checkpoint })),
      decisions: this.decisions.map((decision) => ({ ...decision })),
      artifacts: this.artifacts.map((artifact) => ({ ...artifact })),
      ...(this.next !== undefined ? { next: this.next } : {}),
      setBy: this.setBy,
    };
  }

  /** The earlier goals of the session, oldest first: completed, abandoned, or replaced by a newer one. */
  get history(): readonly GoalState[] {
    return this.earlier.map(copyGoal);
  }

  /** True when the current goal is the user's: the model's goal and lock markers then only propose. */
  get userGoalSet(): boolean {
    return this.description !== undefined && this.setBy === 'user';
  }

  /**
   * Sets the user's goal (as `/goal <text>` does); checkpoints, decisions and artifacts start over.
   * The goal it replaces goes into the history as abandoned.
   */
  setGoal(description: string, priority?: GoalPriority): void {
    this.replaceGoal(description, 'user');
    if (priority !== undefined) this.setPriority(priority);
  }

  /** Sets the current goal's priority (`/goal priority high`); false when there is no goal. */
  setPriority(priority: GoalPriority): boolean {
    if (!PRIORITIES.includes(priority)) {
      throw new InvalidArgumentError({ argument: 'priority', message: `Unknown goal priority ${JSON.stringify(priority)}: use high, medium or low.` });
    }
    if (this.description === undefined) return false;
    this.priority = priority;
    return true;
  }

  /**
   * Ends the current goal as `completed` (`/goal done`) or `abandoned` (`/goal abandon`): it goes
   * into the history with the time, and the system prompt carries no goal until the next one.
   * Returns the goal as ended, or undefined when there was none.
   */
  finish(status: 'completed' | 'abandoned'): GoalState | undefined {
    const ended = this.endCurrent(status);
    this.forget();
    return ended;
  }

  /** Forgets the current goal (not the history). */
  clear(): void {
    this.forget();
  }

  /**
   * The user's decision (`/decision lock TEXT`, `/decision TEXT`): locked or open, theirs; a model's
   * proposal with the same text becomes the user's. False when there is no goal to hold it.
   */
  decide(description: string, locked: boolean): boolean {
    if (this.description === undefined || description.trim().length === 0) return false;
    this.apply({ kind: 'decision', description: description.trim(), locked }, 'user');
    return true;
  }

  /** Drops a decision (a model's proposal the user rejects, or one of their own); false when none has that text. */
  dropDecision(description: string): boolean {
    const index = this.decisions.findIndex((decision) => sameText(decision.description, description));
    if (index < 0) return false;
    this.decisions.splice(index, 1);
    return true;
  }

  /** Restores the earlier goals (a saved state's `goalHistory`), replacing the ones held. */
  restoreHistory(history: readonly GoalState[]): void {
    this.earlier = history.slice(-GOAL_HISTORY_LIMIT).map(copyGoal);
  }

  restore(state: GoalState): void {
    this.description = state.description;
    this.id = state.id;
    this.priority = state.priority ?? 'medium';
    this.createdAt = state.createdAt;
    // A state saved before goals recorded who set them: the user's, so no marker can replace it.
    this.setBy = state.setBy === 'model' ? 'model' : 'user';
    this.checkpoints = state.checkpoints.map((checkpoint) => ({ ...checkpoint }));
    this.decisions = state.decisions.map((decision) => ({ ...decision }));
    this.artifacts = state.artifacts.map((artifact) => ({ ...artifact }));
    this.next = state.next;
    this.reported = new Set();
  }

  /**
   * Applies the marker lines in `text` as its `source` allows: the user's always; the model's and
   * a tool's under `modelMarkers`. Returns what changed and the model's goals and locks to show.
   */
  applyMarkers(text: string, source: MarkerSource): MarkerOutcome {
    const applied: GoalUpdate[] = [];
    const proposals: GoalProposal[] = [];
    for (const line of text.split(/\r?\n/)) {
      const update = parseGoalMarker(line);
      if (!update) continue;
      if (source === 'user') {
        this.apply(update, 'user');
        applied.push(update);
        continue;
      }
      const outcome = this.applyFromModel(update, source);
      if (outcome.applied) applied.push(outcome.applied);
      if (outcome.proposal && this.firstReport(outcome.proposal)) proposals.push(outcome.proposal);
    }
    return { applied, proposals };
  }

  /**
   * @deprecated Use `applyMarkers(text, 'assistant')`, which also returns the proposals to show.
   * Applies the marker lines of an assistant answer (under `modelMarkers`) and returns what changed.
   */
  applyAssistantOutput(text: string): GoalUpdate[] {
    return this.applyMarkers(text, 'assistant').applied;
  }

  /** Applies one marker with the authority of `source` (`user`: always; `model`: the caller decided it may); true when the goal changed. */
  apply(update: GoalUpdate, source: 'user' | 'model' = 'user'): boolean {
    const before = JSON.stringify(this.state);
    this.applyUpdate(update, source);
    return JSON.stringify(this.state) !== before;
  }

  private applyUpdate(update: GoalUpdate, source: 'user' | 'model'): void {
    switch (update.kind) {
      case 'goal':
        if (this.description === undefined || !sameText(update.description, this.description)) this.replaceGoal(update.description, source);
        else if (source === 'user') this.setBy = 'user';
        break;
      case 'checkpoint': {
        const existing = this.checkpoints.find((checkpoint) => sameText(checkpoint.description, update.description));
        if (existing) existing.status = update.status;
        else this.checkpoints.push({ description: update.description, status: update.status });
        break;
      }
      case 'decision': {
        const existing = this.decisions.find((decision) => sameText(decision.description, update.description));
        if (existing) {
          // A locked decision stays locked: a later unlocked mention does not unlock it. The user
          // repeating a model's proposal makes it theirs; the model repeating the user's changes nothing.
          existing.locked = existing.locked || update.locked;
          if (source === 'user') existing.by = 'user';
        } else this.decisions.push({ description: update.description, locked: update.locked, by: source });
        break;
      }
      case 'artifact': {
        const existing = this.artifacts.find((artifact) => artifact.path === update.path);
        // A file this goal created and then edited is still one it created.
        if (existing) existing.action = existing.action === 'created' && update.action === 'modified' ? 'created' : update.action;
        else this.artifacts.push({ action: update.action, path: update.path });
        break;
      }
      case 'next':
        this.next = update.description;
        break;
    }
  }

  /** The goal block for the system prompt (empty string without a goal). */
  render(): string {
    const state = this.state;
    return state ? renderGoalBlock(state) : '';
  }

  /** One marker from model or tool output: progress markers apply; a goal or a lock only as the policy says. */
  private applyFromModel(update: GoalUpdate, source: 'assistant' | 'tool'): { applied?: GoalUpdate; proposal?: GoalProposal } {
    if (this.modelMarkers === 'ignore') return {};
    const isGoal = update.kind === 'goal';
    const isLock = update.kind === 'decision' && update.locked;
    if (!isGoal && !isLock) {
      this.apply(update, 'model');
      return { applied: update };
    }
    // Nothing to decide when it changes nothing: the same goal again, a decision already locked.
    if (isGoal && this.description !== undefined && sameText(update.description, this.description)) return {};
    if (isLock && this.decisions.some((decision) => decision.locked && sameText(decision.description, update.description))) return {};
    const kind = isGoal ? 'goal' : 'locked-decision';
    // Only the user locks decisions (unless `apply`, ollm 0.1's way): a reply can repeat an
    // instruction it read, and a lock would carry it into every later turn.
    const decision =
      isLock && this.modelMarkers !== 'apply' ? ({ action: 'propose', reason: 'user-locks' } as const) : decideModelMarker(this.modelMarkers, this.userGoalSet);
    if (decision.action === 'ignore') return {};
    if (decision.action === 'apply') {
      this.apply(update, 'model');
      return { applied: update, proposal: { kind, description: update.description, source, applied: true } };
    }
    // Not applied: a lock proposed is kept as an open decision (what any model decision is).
    const open: GoalUpdate | undefined = isLock ? { kind: 'decision', description: update.description, locked: false } : undefined;
    if (open) this.apply(open, 'model');
    return { ...(open ? { applied: open } : {}), proposal: { kind, description: update.description, source, applied: false, reason: decision.reason } };
  }

  private firstReport(proposal: GoalProposal): boolean {
    const key = `${proposal.kind}\n${proposal.applied}\n${proposal.description.trim().toLowerCase()}`;
    if (this.reported.has(key)) return false;
    this.reported.add(key);
    return true;
  }

  private replaceGoal(description: string, setBy: 'user' | 'model'): void {
    this.endCurrent('abandoned');
    this.description = description.trim();
    this.id = newGoalId();
    this.priority = 'medium';
    this.createdAt = this.clock().toISOString();
    this.setBy = setBy;
    this.checkpoints = [];
    this.decisions = [];
    this.artifacts = [];
    this.next = undefined;
    this.reported = new Set();
  }

  /** Puts the current goal into the history with its final status and the time; returns it. */
  private endCurrent(status: 'completed' | 'abandoned'): GoalState | undefined {
    const current = this.state;
    if (!current) return undefined;
    const ended: GoalState = { ...current, status, completedAt: this.clock().toISOString() };
    this.earlier.push(ended);
    if (this.earlier.length > GOAL_HISTORY_LIMIT) this.earlier.splice(0, this.earlier.length - GOAL_HISTORY_LIMIT);
    return ended;
  }

  private forget(): void {
    this.description = undefined;
    this.id = undefined;
    this.priority = 'medium';
    this.createdAt = undefined;
    this.setBy = 'user';
    this.checkpoints = [];
    this.decisions = [];
    this.artifacts = [];
    this.next = undefined;
    this.reported = new Set();
  }
}

function newGoalId(): string {
  return `goal-${randomUUID().slice(0, 8)}`;
}

function copyGoal(goal: GoalState): GoalState {
  return {
    ...goal,
    checkpoints: goal.checkpoints.map((checkpoint) => ({ ...checkpoint })),
    decisions: goal.decisions.map((decision) => ({ ...decision })),
    artifacts: goal.artifacts.map((artifact) => ({ ...artifact })),
  };
}

function sameText(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
