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

/** The header line of a goal block: what `parseGoalBlock` looks for in a system message. */
const GOAL_HEADER = 'ACTIVE GOAL: ';

/**
 * Renders a goal as the block the runtime puts in the system prompt and goal-aware prompts read:
 * the goal, its priority and status (the design's header lines), checkpoints, decisions, artifacts
 * and next step. `parseGoalBlock` reads it back.
 */
export function renderGoalBlock(state: GoalState): string {
  const lines = [GOAL_HEADER + state.description, `Priority: ${state.priority ?? 'medium'}`, `Status: ${state.status ?? 'active'}`];
  if (state.checkpoints.length > 0) {
    lines.push('Checkpoints:');
    for (const checkpoint of state.checkpoints) lines.push(`  ${ICON[checkpoint.status]} ${checkpoint.description} (${checkpoint.status})`);
  }
  const locked = state.decisions.filter((decision) => decision.locked);
  const open = state.decisions.filter((decision) => !decision.locked && decision.by !== 'model');
  const proposed = state.decisions.filter((decision) => !decision.locked && decision.by === 'model');
  for (const [heading, decisions] of [
    [LOCKED_HEADING, locked],
    ['Decisions:', open],
    // A reply can repeat anything the model read: its decisions are shown as what they are.
    [PROPOSED_HEADING, proposed],
  ] as const) {
    if (decisions.length === 0) continue;
    lines.push(heading);
    for (const decision of decisions) lines.push(`  - ${decision.description}`);
  }
  if (state.artifacts.length > 0) {
    lines.push('Artifacts:');
    // The block is never compacted: a long session's files are listed newest last, the oldest counted.
    const hidden = Math.max(state.artifacts.length - ARTIFACTS_SHOWN, 0);
    if (hidden > 0) lines.push(`  - (${hidden} earlier not listed)`);
    for (const artifact of state.artifacts.slice(hidden)) lines.push(`  - ${artifact.action} ${artifact.path}`);
  }
  if (state.next) lines.push(`Next: ${state.next}`);
  return lines.join('\n');
}

const LOCKED_HEADING = 'Locked decisions (do not revisit):';
const PROPOSED_HEADING = 'Proposed by the model (not confirmed by the user):';
/** Artifacts the block lists at most (the newest); the goal itself keeps them all. */
export const ARTIFACTS_SHOWN = 25;
const ARTIFACTS_HIDDEN_LINE = /^ {2}- \(\d+ earlier not listed\)$/;
const PRIORITIES: ReadonlySet<string> = new Set(['high', 'medium', 'low']);
const STATUSES: ReadonlySet<string> = new Set(['active', 'completed', 'abandoned']);
const CHECKPOINT_LINE = /^ {2}\[[x~ ]\] (.*) \((completed|in-progress|pending)\)$/;
const ARTIFACT_LINE = /^ {2}- (created|modified|deleted) (.+)$/;

/**
 * Reads back the goal block `renderGoalBlock` wrote, from any text that holds one (a system
 * message of a transcript): from its `ACTIVE GOAL:` line to the first line that is not part of
 * the block. Undefined when the text holds none. Ids and times are not in the block.
 */
export function parseGoalBlock(text: string): GoalState | undefined {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((line) => line.startsWith(GOAL_HEADER));
  if (start < 0) return undefined;
  const description = lines[start]!.slice(GOAL_HEADER.length).trim();
  if (description.length === 0) return undefined;
  let priority: GoalState['priority'];
  let status: GoalState['status'];
  let next: string | undefined;
  const checkpoints: { description: string; status: CheckpointStatus }[] = [];
  const decisions: { description: string; locked: boolean; by?: 'user' | 'model' }[] = [];
  const artifacts: { action: ArtifactAction; path: string }[] = [];
  let section: 'checkpoints' | 'locked' | 'decisions' | 'proposed' | 'artifacts' | undefined;
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('Priority: ') && PRIORITIES.has(line.slice(10))) priority = line.slice(10) as GoalState['priority'];
    else if (line.startsWith('Status: ') && STATUSES.has(line.slice(8))) status = line.slice(8) as GoalState['status'];
    else if (line === 'Checkpoints:') section = 'checkpoints';
    else if (line === LOCKED_HEADING) section = 'locked';
    else if (line === 'Decisions:') section = 'decisions';
    else if (line === PROPOSED_HEADING) section = 'proposed';
    else if (line === 'Artifacts:') section = 'artifacts';
    else if (line.startsWith('Next: ')) {
      next = line.slice(6);
      section = undefined;
    } else if (section === 'checkpoints' && CHECKPOINT_LINE.test(line)) {
      const match = CHECKPOINT_LINE.exec(line)!;
      checkpoints.push({ description: match[1]!, status: match[2] as CheckpointStatus });
    } else if ((section === 'locked' || section === 'decisions' || section === 'proposed') && line.startsWith('  - ')) {
      decisions.push({ description: line.slice(4), locked: section === 'locked', ...(section === 'proposed' ? { by: 'model' as const } : {}) });
    } else if (section === 'artifacts' && ARTIFACTS_HIDDEN_LINE.test(line)) {
      continue;
    } else if (section === 'artifacts' && ARTIFACT_LINE.test(line)) {
      const match = ARTIFACT_LINE.exec(line)!;
      artifacts.push({ action: match[1] as ArtifactAction, path: match[2]! });
    } else break;
  }
  return {
    description,
    ...(priority ? { priority } : {}),
    ...(status ? { status } : {}),
    checkpoints,
    decisions,
    artifacts,
    ...(next !== undefined ? { next } : {}),
  };
}
