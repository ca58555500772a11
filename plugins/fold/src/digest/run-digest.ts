import type { Message } from '@ollm/core';

/** The program a shell command runs (`cd /testbed && grep -n …` runs grep), or the tool's name. */
function actionOf(name: string, input: unknown): string {
  const command =
    input !== null && typeof input === 'object' ? ((input as Record<string, unknown>)['command'] ?? (input as Record<string, unknown>)['cmd']) : undefined;
  if (typeof command !== 'string') return name;
  const segments = command.split(/&&|;|\|/).map((segment) => segment.trim().split(/\s+/)[0] ?? '');
  const program = segments.find((word) => word.length > 0 && word !== 'cd') ?? segments[0] ?? '';
  return program.length > 0 && program.length <= 24 ? program : name;
}

/** The action of each call in `messages`, in order. */
export function actionsOf(messages: readonly Message[]): string[] {
  const actions: string[] = [];
  for (const message of messages) {
    for (const part of message.parts) if (part.type === 'tool-call') actions.push(actionOf(part.name, part.input));
  }
  return actions;
}

/** What the dropped turns did, by action: `grep ×5, sed ×3, python ×2`. */
export function describeActions(messages: readonly Message[], maxActions: number): string {
  return describeActionList(actionsOf(messages), maxActions);
}

/** `describeActions` from the actions themselves (each turn's found once). */
export function describeActionList(actions: Iterable<string>, maxActions: number): string {
  const counts = new Map<string, number>();
  for (const action of actions) counts.set(action, (counts.get(action) ?? 0) + 1);
  const ordered = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const shown = ordered.slice(0, maxActions).map(([action, count]) => (count > 1 ? `${action} ×${count}` : action));
  if (ordered.length > maxActions) shown.push('…');
  return shown.join(', ');
}

/** Before the names of a run digest: `; names seen:`. */
export const RUN_NAMES_LEAD = '; names seen:';

/** Before the names of a glossary. */
export const GLOSSARY_LEAD = '[ollm fold] names in folded steps:';

/** The reference, how many steps and what they did: a run digest without its names. */
export function runDigestHead(tag: string, steps: number, actions: string): string {
  return `${tag} ${steps} earlier step${steps === 1 ? '' : 's'} folded${actions.length > 0 ? ` (${actions})` : ''}`;
}

/** The text standing for a run of dropped turns: the reference, how many steps and actions, and the names kept. */
export function runDigestText(tag: string, steps: number, actions: string, names: readonly string[]): string {
  const head = runDigestHead(tag, steps, actions);
  return names.length > 0 ? `${head}${RUN_NAMES_LEAD} ${names.join(', ')}` : head;
}

/** The names folded steps held that nothing kept shows, when no run of dropped turns carries them. */
export function glossaryText(names: readonly string[]): string {
  return `${GLOSSARY_LEAD} ${names.join(', ')}`;
}
