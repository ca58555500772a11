import type { SearchTerms } from './search-terms.js';
import { searchSnippet, type SearchSnippet } from './search-snippet.js';

/**
 * Which text of a message or goal a search hit is in: a message's text, reasoning, tool call
 * (name and arguments) or tool result; a goal's description, checkpoint, decision, artifact
 * (action and path) or next step.
 */
export type SearchField = 'text' | 'reasoning' | 'tool-call' | 'tool-result' | 'goal' | 'checkpoint' | 'decision' | 'artifact' | 'next';

export interface FieldText {
  readonly field: SearchField;
  readonly text: string;
}

/** Where the terms were found in one message or goal. */
export interface FieldMatch {
  readonly field: SearchField;
  /** The whole text of that field (a goal's hits are reported once per distinct text). */
  readonly text: string;
  readonly snippet: SearchSnippet;
}

/**
 * The searchable texts of a message as stored (read structurally: a part of an unknown type, or
 * without the fields it should have, has none).
 */
export function messageFields(message: unknown): FieldText[] {
  const parts = isRecord(message) && Array.isArray(message['parts']) ? (message['parts'] as unknown[]) : [];
  const fields: FieldText[] = [];
  for (const part of parts) {
    if (!isRecord(part)) continue;
    if ((part['type'] === 'text' || part['type'] === 'reasoning') && typeof part['text'] === 'string') fields.push({ field: part['type'], text: part['text'] });
    else if (part['type'] === 'tool-call') fields.push({ field: 'tool-call', text: toolCallText(part) });
    else if (part['type'] === 'tool-result' && typeof part['output'] === 'string') fields.push({ field: 'tool-result', text: part['output'] });
  }
  return fields;
}

/** `read_file {"path":"a.ts"}`: the tool's name and its arguments as JSON (or as the source sent them). */
function toolCallText(part: Record<string, unknown>): string {
  const name = typeof part['name'] === 'string' ? part['name'] : '';
  const input = part['input'] !== undefined ? JSON.stringify(part['input']) : typeof part['rawInput'] === 'string' ? part['rawInput'] : '';
  return input ? `${name} ${input}` : name;
}

/**
 * The searchable texts of a recorded goal state, read structurally so fields a newer ollm adds
 * change nothing: description, each checkpoint and decision, each artifact as `action path`, next.
 */
export function goalFields(goal: unknown): FieldText[] {
  if (!isRecord(goal)) return [];
  const fields: FieldText[] = [];
  if (typeof goal['description'] === 'string') fields.push({ field: 'goal', text: goal['description'] });
  for (const checkpoint of listOf(goal['checkpoints'])) {
    if (typeof checkpoint['description'] === 'string') fields.push({ field: 'checkpoint', text: checkpoint['description'] });
  }
  for (const decision of listOf(goal['decisions'])) {
    if (typeof decision['description'] === 'string') fields.push({ field: 'decision', text: decision['description'] });
  }
  for (const artifact of listOf(goal['artifacts'])) {
    if (typeof artifact['path'] === 'string')
      fields.push({ field: 'artifact', text: `${typeof artifact['action'] === 'string' ? `${artifact['action']} ` : ''}${artifact['path']}` });
  }
  if (typeof goal['next'] === 'string') fields.push({ field: 'next', text: goal['next'] });
  return fields;
}

/**
 * A match when every term occurs in the texts taken together (each term in some field), shown
 * from the field that holds the most of them (the first such); else undefined.
 */
export function matchFields(fields: readonly FieldText[], terms: SearchTerms, snippetLength?: number): FieldMatch | undefined {
  const { patterns } = terms;
  if (!patterns.every((pattern) => fields.some((field) => pattern.test(field.text)))) return undefined;
  let best = 0;
  let bestCount = -1;
  fields.forEach((field, index) => {
    const count = patterns.filter((pattern) => pattern.test(field.text)).length;
    if (count > bestCount) [best, bestCount] = [index, count];
  });
  const field = fields[best]!;
  return { field: field.field, text: field.text, snippet: searchSnippet(field.text, patterns, snippetLength) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function listOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}
