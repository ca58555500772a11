import { parseGoalMarker, toolCallArguments, type GoalState, type Message } from '@ollm/core';

export interface CheckpointFacts {
  readonly keyDecisions: string[];
  readonly filesModified: string[];
  readonly nextSteps: string[];
}

const MAX_FACTS = 10;
const MAX_FACT_LENGTH = 160;
const EXTENSION =
  'py|pyi|ts|tsx|js|jsx|mjs|cjs|json|md|rst|txt|go|rs|java|kt|c|h|cc|cpp|hpp|rb|php|cs|swift|sh|yml|yaml|toml|ini|cfg|html|css|scss|sql|xml|lock';
const PATH = new RegExp(`(?:^|[\\s\`'"(=:])((?:[\\w.@-]+/)*[\\w@-][\\w.@-]*\\.(?:${EXTENSION}))(?=$|[\\s\`'"),:;])`, 'g');
const EDIT_WORDS = /\b(str_replace|create|insert|write|edit|patch|apply_patch|sed\s+-i|tee|mv|rm|touch|modif\w*|chang\w*|updat\w*|fix\w*|add\w*)\b|>\s*\S/i;
const DECISION_LINE = /\b(decid\w*|decision|chose|chosen|agreed|will use|going with|LOCKED)\b/i;
const NEXT_LINE = /^\s*(?:[-*]\s*)?(?:\*\*)?(?:next(?:\s+steps?)?|todo|remaining|still to do)(?:\*\*)?\s*[:\-–]/i;

/** File paths named in `text` (with a known extension, so "e.g." and versions do not count). */
export function findPaths(text: string): string[] {
  return [...text.matchAll(PATH)].map((match) => match[1]!);
}

/**
 * keyDecisions, filesModified and nextSteps for a checkpoint, from the goal (locked decisions,
 * artifacts, next), the markers and edit calls in the summarised span, and the summary's lines.
 */
export function extractFacts(summary: string, spanMessages: readonly Message[], goal: GoalState | undefined): CheckpointFacts {
  const decisions: string[] = [];
  const files: string[] = [];
  const next: string[] = [];
  for (const decision of goal?.decisions ?? []) if (decision.locked) decisions.push(decision.description);
  for (const artifact of goal?.artifacts ?? []) files.push(artifact.path);
  if (goal?.next) next.push(goal.next);
  for (const message of spanMessages) {
    for (const part of message.parts) {
      if (part.type === 'text' && message.role === 'assistant') {
        for (const line of part.text.split('\n')) {
          const marker = parseGoalMarker(line);
          if (marker?.kind === 'decision') decisions.push(marker.description);
          else if (marker?.kind === 'artifact') files.push(marker.path);
          else if (marker?.kind === 'next') next.push(marker.description);
        }
      } else if (part.type === 'tool-call') {
        const call = `${part.name} ${toolCallArguments(part)}`;
        if (EDIT_WORDS.test(call)) files.push(...findPaths(call.replace(/\\n/g, ' ')));
      }
    }
  }
  const lines = summary
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  let underNextHeading = false;
  for (const line of lines) {
    if (/^#+\s|^\*\*.*\*\*:?$/.test(line)) underNextHeading = /next|todo|remaining/i.test(line);
    else if (NEXT_LINE.test(line) || underNextHeading) next.push(line.replace(/^[-*]\s*/, ''));
    if (DECISION_LINE.test(line)) decisions.push(line.replace(/^[-*]\s*/, ''));
    if (EDIT_WORDS.test(line)) files.push(...findPaths(line));
  }
  return { keyDecisions: distinct(decisions), filesModified: distinct(files), nextSteps: distinct(next) };
}

/** Joins fact lists (aging and merging keep what older checkpoints recorded), newest last. */
export function mergeFacts(...all: readonly { readonly [K in keyof CheckpointFacts]?: readonly string[] }[]): CheckpointFacts {
  return {
    keyDecisions: distinct(
      all.flatMap((facts) => facts.keyDecisions ?? []),
      true,
    ),
    filesModified: distinct(
      all.flatMap((facts) => facts.filesModified ?? []),
      true,
    ),
    nextSteps: distinct(all.flatMap((facts) => facts.nextSteps ?? []).slice(-MAX_FACTS)),
  };
}

function distinct(values: readonly string[], keepNewest = false): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const value of values) {
    const text = value.trim().slice(0, MAX_FACT_LENGTH);
    const key = text.toLowerCase();
    if (text === '' || seen.has(key)) continue;
    seen.add(key);
    result.push(text);
  }
  return keepNewest ? result.slice(-MAX_FACTS) : result.slice(0, MAX_FACTS);
}
