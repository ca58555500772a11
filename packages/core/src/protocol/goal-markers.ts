/**
 * The goal-marker protocol: the marker lines a model writes (`[GOAL]`, `[CHECKPOINT] ... - COMPLETED`,
 * `[DECISION] ... - LOCKED`, `[ARTIFACT] Created path`, `[NEXT]`) and the goal block rendered from
 * a `GoalState`. Shared by the runtime's goal manager and the providers that read goals.
 */
import type { GoalState } from '../provider/provider-context.js';

export type CheckpointStatus = GoalState['checkpoints'][number]['status'];
export type ArtifactAction = GoalState['artifacts'][number]['action'];

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
