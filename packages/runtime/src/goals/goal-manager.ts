import { parseGoalMarker, renderGoalBlock, type ArtifactAction, type CheckpointStatus, type GoalState, type GoalUpdate } from '@ollm/core';

/**
 * Keeps the active goal from the markers a model writes in its answers. The goal block it renders
 * goes into the system prompt and is never compacted.
 */
export class GoalManager {
  private description: string | undefined;
  private checkpoints: { description: string; status: CheckpointStatus }[] = [];
  private decisions: { description: string; locked: boolean }[] = [];
  private artifacts: { action: ArtifactAction; path: string }[] = [];
  private next: string | undefined;

  constructor(state?: GoalState) {
    if (state) this.restore(state);
  }

  /** The current goal, or undefined when none was set. */
  get state(): GoalState | undefined {
    if (this.description === undefined) return undefined;
    return {
      description: this.description,
      checkpoints: this.checkpoints.map((checkpoint) => ({ ...checkpoint })),
      decisions: this.decisions.map((decision) => ({ ...decision })),
      artifacts: this.artifacts.map((artifact) => ({ ...artifact })),
      ...(this.next !== undefined ? { next: this.next } : {}),
    };
  }

  /** Sets a new goal (as `/goal <text>` does); checkpoints, decisions and artifacts start over. */
  setGoal(description: string): void {
    this.description = description.trim();
    this.checkpoints = [];
    this.decisions = [];
    this.artifacts = [];
    this.next = undefined;
  }

  /** Forgets the goal entirely. */
  clear(): void {
    this.setGoal('');
    this.description = undefined;
  }

  restore(state: GoalState): void {
    this.description = state.description;
    this.checkpoints = state.checkpoints.map((checkpoint) => ({ ...checkpoint }));
    this.decisions = state.decisions.map((decision) => ({ ...decision }));
    this.artifacts = state.artifacts.map((artifact) => ({ ...artifact }));
    this.next = state.next;
  }

  /** Applies every marker line in `text` (an assistant answer) and returns what changed. */
  applyAssistantOutput(text: string): GoalUpdate[] {
    const updates: GoalUpdate[] = [];
    for (const line of text.split(/\r?\n/)) {
      const update = parseGoalMarker(line);
      if (!update) continue;
      this.apply(update);
      updates.push(update);
    }
    return updates;
  }

  apply(update: GoalUpdate): void {
    switch (update.kind) {
      case 'goal':
        if (update.description !== this.description) this.setGoal(update.description);
        break;
      case 'checkpoint': {
        const existing = this.checkpoints.find((checkpoint) => sameText(checkpoint.description, update.description));
        if (existing) existing.status = update.status;
        else this.checkpoints.push({ description: update.description, status: update.status });
        break;
      }
      case 'decision': {
        const existing = this.decisions.find((decision) => sameText(decision.description, update.description));
        // A locked decision stays locked: a later unlocked mention does not unlock it.
        if (existing) existing.locked = existing.locked || update.locked;
        else this.decisions.push({ description: update.description, locked: update.locked });
        break;
      }
      case 'artifact': {
        const existing = this.artifacts.find((artifact) => artifact.path === update.path);
        if (existing) existing.action = update.action;
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
}

function sameText(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
