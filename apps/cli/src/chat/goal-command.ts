import type { GoalPriority, GoalState } from '@ollm/core';
import type { ModelMarkerPolicy } from '@ollm/runtime';
import { renderTable } from '../output/render-table.js';
import type { ChatSession } from './chat-session.js';
import type { SlashCommand } from './slash-command.js';

const PRIORITIES: readonly GoalPriority[] = ['high', 'medium', 'low'];

/**
 * `/goal`: shows, sets and ends the goal kept in the system prompt. A word alone is a subcommand
 * (`/goal done`, `/goal abandon`, `/goal list`, `/goal priority high`); any other text is the goal
 * (`/goal list the open bugs` sets that goal).
 */
export const goalCommand: SlashCommand = {
  name: 'goal',
  usage: '[TEXT|done|abandon|list|priority high|medium|low]',
  summary: 'the goal kept in the system prompt (never compacted): set, show, done, abandon, list, priority',
  run(session, argument) {
    const words = argument.split(/\s+/).filter((word) => word.length > 0);
    if (words.length === 0) return showGoal(session);
    if (words.length === 1 && (words[0] === 'done' || words[0] === 'abandon')) return endGoal(session, words[0] === 'done' ? 'completed' : 'abandoned');
    if (words.length === 1 && words[0] === 'list') return listGoals(session);
    if (words[0] === 'priority' && words.length <= 2) return setPriority(session, words[1]);
    session.manager.setGoal(argument);
    session.print(`Goal set: ${argument}`);
  },
};

function showGoal(session: ChatSession): void {
  const { goals } = session.manager;
  const block = goals.render();
  if (block.length === 0) {
    const model = goals.modelMarkers === 'apply-when-unset' || goals.modelMarkers === 'apply' ? ' (or the model writes a [GOAL] marker)' : '';
    const earlier = goals.history.length > 0 ? ` ${goals.history.length} earlier: /goal list.` : '';
    session.print(`No goal yet: set one with /goal TEXT${model}.${earlier}`);
    return;
  }
  session.print(block);
  session.print(session.options.colors.dim(`(${whoSetTheGoal(goals.userGoalSet, goals.modelMarkers)})`));
}

function endGoal(session: ChatSession, status: 'completed' | 'abandoned'): void {
  const ended = session.manager.finishGoal(status);
  if (!ended) {
    session.print('No goal to end: set one with /goal TEXT.');
    return;
  }
  const done = ended.checkpoints.filter((checkpoint) => checkpoint.status === 'completed').length;
  const progress = ended.checkpoints.length > 0 ? ` (${done} of ${ended.checkpoints.length} checkpoints done)` : '';
  session.print(`Goal ${status}: ${ended.description}${progress}. The system prompt carries no goal now; /goal list shows it.`);
}

function listGoals(session: ChatSession): void {
  const { goals } = session.manager;
  const all = [...goals.history, ...(goals.state ? [goals.state] : [])];
  if (all.length === 0) {
    session.print('No goals in this session yet: set one with /goal TEXT.');
    return;
  }
  const rows = all.map((goal) => [
    goal.id ?? '-',
    goal.status ?? 'active',
    goal.priority ?? 'medium',
    time(goal.createdAt),
    time(goal.completedAt),
    progressOf(goal),
    goal.description,
  ]);
  session.print(renderTable([['id', 'status', 'priority', 'set', 'ended', 'checkpoints', 'goal'], ...rows]));
}

function setPriority(session: ChatSession, value: string | undefined): void {
  if (value === undefined || !PRIORITIES.includes(value as GoalPriority)) {
    session.print(`Usage: /goal priority high|medium|low${value !== undefined ? ` (not "${value}")` : ''}.`);
    return;
  }
  if (!session.manager.setGoalPriority(value as GoalPriority)) {
    session.print('No goal to set a priority on: set one with /goal TEXT.');
    return;
  }
  session.print(`Goal priority: ${value}.`);
}

function progressOf(goal: GoalState): string {
  if (goal.checkpoints.length === 0) return '-';
  return `${goal.checkpoints.filter((checkpoint) => checkpoint.status === 'completed').length}/${goal.checkpoints.length}`;
}

function time(iso: string | undefined): string {
  return iso === undefined ? '-' : iso.slice(0, 16).replace('T', ' ');
}

/** Whose the goal is, and what the model's markers may do to it (config `goals.modelMarkers`). */
function whoSetTheGoal(userGoalSet: boolean, policy: ModelMarkerPolicy): string {
  if (!userGoalSet) return 'set by the model: /goal TEXT sets yours, which the model cannot replace';
  if (policy === 'apply') return 'your goal; goals.modelMarkers is "apply": a [GOAL] in a reply replaces it';
  if (policy === 'ignore') return 'your goal; goals.modelMarkers is "ignore": markers in the model\'s replies are not read';
  return 'your goal: a [GOAL] or locked [DECISION] in a reply is only shown to you, not applied';
}
