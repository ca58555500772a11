import type { GoalState } from '../spec/provider-context.js';

type CheckpointStatus = GoalState['checkpoints'][number]['status'];
type ArtifactAction = GoalState['artifacts'][number]['action'];

/** One change a marker line made, reported so the runtime can emit events and log them. */
export type GoalUpdate =
  | { readonly kind: 'goal'; readonly description: string }
  | { readonly kind: 'checkpoint'; readonly description: string; readonly status: CheckpointStatus }
  | { readonly kind: 'decision'; readonly description: string; readonly locked: boolean }
  | { readonly kind: 'artifact'; readonly action: ArtifactAction; readonly path: string }
  | { readonly kind: 'next'; readonly description: string };

const STATUS: Record<string, CheckpointStatus> = {
  COMPLETED: 'completed',
  DONE: 'completed',
  'IN PROGRESS': 'in-progress',
  'IN-PROGRESS': 'in-progress',
  PENDING: 'pending',
};

const MARKER = /^\s*(?:[-*]\s*)?\[(GOAL|CHECKPOINT|DECISION|ARTIFACT|NEXT)\]\s*(.+?)\s*$/i;

/** Parses one marker line (`[GOAL] ...`, `[CHECKPOINT] ... - COMPLETED`, ...); undefined if it is not one. */
export function parseGoalMarker(line: string): GoalUpdate | undefined {
  const match = MARKER.exec(line);
  if (!match) return undefined;
  const marker = match[1]!.toUpperCase();
  const body = match[2]!;
  switch (marker) {
    case 'GOAL':
      return { kind: 'goal', description: body };
    case 'CHECKPOINT': {
      const status = /^(.*?)\s*[-–—:]\s*(COMPLETED|DONE|IN[ -]PROGRESS|PENDING)\s*$/i.exec(body);
      if (!status) return { kind: 'checkpoint', description: body, status: 'pending' };
      return { kind: 'checkpoint', description: status[1]!, status: STATUS[status[2]!.toUpperCase().replace('-', ' ')] ?? 'pending' };
    }
    case 'DECISION': {
      const locked = /^(.*?)\s*[-–—:]\s*LOCKED\s*$/i.exec(body);
      return locked ? { kind: 'decision', description: locked[1]!, locked: true } : { kind: 'decision', description: body, locked: false };
    }
    case 'ARTIFACT': {
      const artifact = /^(Created|Modified|Deleted)\s+(.+)$/i.exec(body);
      if (!artifact) return undefined;
      return { kind: 'artifact', action: artifact[1]!.toLowerCase() as ArtifactAction, path: artifact[2]!.replace(/^`|`$/g, '') };
    }
    default:
      return { kind: 'next', description: body };
  }
}

/**
 * Keeps the active goal from the markers a model writes in its answers. The goal block it renders
 * goes into the system prompt and is never compressed.
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

const ICON: Record<CheckpointStatus, string> = { completed: '[x]', 'in-progress': '[~]', pending: '[ ]' };

/** Renders a goal as the block the runtime puts in the system prompt and goal-aware prompts read. */
export function renderGoalBlock(state: GoalState): string {
  const lines = ['ACTIVE GOAL: ' + state.description];
  if (state.checkpoints.length > 0) {
    lines.push('Checkpoints:');
    for (const checkpoint of state.checkpoints) lines.push(`  ${ICON[checkpoint.status]} ${checkpoint.description} (${checkpoint.status})`);
  }
  const locked = state.decisions.filter((decision) => decision.locked);
  const open = state.decisions.filter((decision) => !decision.locked);
  if (locked.length > 0) {
    lines.push('Locked decisions (do not revisit):');
    for (const decision of locked) lines.push(`  - ${decision.description}`);
  }
  if (open.length > 0) {
    lines.push('Decisions:');
    for (const decision of open) lines.push(`  - ${decision.description}`);
  }
  if (state.artifacts.length > 0) {
    lines.push('Artifacts:');
    for (const artifact of state.artifacts) lines.push(`  - ${artifact.action} ${artifact.path}`);
  }
  if (state.next) lines.push(`Next: ${state.next}`);
  return lines.join('\n');
}

function sameText(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
