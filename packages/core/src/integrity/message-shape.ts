import type { Message, MessageRole } from '../messages/message.js';
import { messagesMemo } from './messages-memo.js';

/**
 * The message-shape contract: what a model API or chat template accepts as a list of messages,
 * apart from the content itself. How turns are counted:
 *
 * - System messages are no turn; `system-first` says where they may be.
 * - A user message is a **user turn**, unless it carries only tool results (the Anthropic form of
 *   results): those belong to the assistant turn, like tool messages.
 * - An **assistant turn** is a run of consecutive assistant messages, tool messages and
 *   results-only user messages: an assistant message with tool calls, its results, more assistant
 *   messages (text, more calls and their results, a checkpoint) up to the next user turn are one
 *   turn. A client whose template wants one message per turn can join them without inventing
 *   anything; a user turn missing between two others, or before the first, cannot be made up.
 */
export const MESSAGE_SHAPE_RULES = {
  'not-empty':
    'every message carries content: non-blank text, a tool call, a tool result or a file (reasoning alone does not count: model APIs drop it from their input)',
  'tool-results-follow-call':
    'each tool result answers a call of the nearest assistant message before it, with only other results between; every call is answered there, except the calls of the last assistant message when only its results follow it (still running)',
  'system-first': 'system messages come only before the first user or assistant message',
  'user-first': 'after the leading system messages, the first message is a user turn',
  alternation: 'user and assistant turns alternate: no user turn directly follows another (system messages between do not separate them)',
} as const;

export type MessageShapeRule = keyof typeof MESSAGE_SHAPE_RULES;

/**
 * `openai`: what the OpenAI Chat Completions API (and Ollama) accept: nothing empty, results right
 * after their call. `strict`: chat templates that raise on anything else (Mistral, Gemma, ...) and
 * the Anthropic Messages API (first message a user message, turns alternating).
 */
export type MessageShapeRuleSet = 'openai' | 'strict';

export const MESSAGE_SHAPE_RULE_SETS: Readonly<Record<MessageShapeRuleSet, readonly MessageShapeRule[]>> = {
  openai: ['not-empty', 'tool-results-follow-call'],
  strict: ['not-empty', 'tool-results-follow-call', 'system-first', 'user-first', 'alternation'],
};

/** The rule set a host checks when the caller names none: the permissive one, as before the contract. */
export const DEFAULT_MESSAGE_SHAPE: MessageShapeRuleSet = 'openai';

export function isMessageShapeRuleSet(value: unknown): value is MessageShapeRuleSet {
  return value === 'openai' || value === 'strict';
}

export interface MessageShapeViolation {
  readonly rule: MessageShapeRule;
  /** Position of the message the violation is found at. */
  readonly position: number;
  readonly detail: string;
}

/** Which turn a message belongs to (see `MESSAGE_SHAPE_RULES`). */
export function turnOf(message: Message): 'system' | 'user' | 'assistant' {
  if (message.role === 'system') return 'system';
  if (message.role === 'user' && !isResultsOnly(message)) return 'user';
  return 'assistant';
}

/** A message whose parts are all tool results (a tool message, or Anthropic's user message of results). */
function isResultsOnly(message: Message): boolean {
  return message.parts.length > 0 && message.parts.every((part) => part.type === 'tool-result');
}

/** True when a message carries something a model API sends: non-blank text, a tool call or result, a file. */
export function hasMessageContent(message: Message): boolean {
  return message.parts.some((part) => (part.type === 'text' ? part.text.trim() !== '' : part.type !== 'reasoning'));
}

function describe(message: Message, position: number): string {
  return `message ${position} ("${message.id}", ${message.role as MessageRole})`;
}

/**
 * Every violation of `ruleSet` (default `strict`) in `messages`, in rule order then position.
 * Needs no input to compare with: the bench, the runtime and a writer can check any list.
 */
export function checkMessageShape(messages: readonly Message[], ruleSet: MessageShapeRuleSet = 'strict'): MessageShapeViolation[] {
  const rules = new Set(MESSAGE_SHAPE_RULE_SETS[ruleSet]);
  const violations: MessageShapeViolation[] = [];
  if (rules.has('not-empty')) {
    messages.forEach((message, position) => {
      if (!hasMessageContent(message)) violations.push({ rule: 'not-empty', position, detail: `${describe(message, position)} is empty` });
    });
  }
  if (rules.has('tool-results-follow-call')) violations.push(...resultPlacement(messages));
  if (rules.has('system-first')) {
    const firstTurn = messages.findIndex((message) => message.role !== 'system');
    messages.forEach((message, position) => {
      if (firstTurn !== -1 && position > firstTurn && message.role === 'system') {
        violations.push({ rule: 'system-first', position, detail: `system ${describe(message, position)} comes after the conversation started` });
      }
    });
  }
  if (rules.has('user-first')) {
    const position = messages.findIndex((message) => message.role !== 'system');
    const first = messages[position];
    if (first && turnOf(first) !== 'user') {
      violations.push({ rule: 'user-first', position, detail: `the first message after the system prompt is ${describe(first, position)}, not a user turn` });
    }
  }
  if (rules.has('alternation')) {
    let previous: 'user' | 'assistant' | undefined;
    messages.forEach((message, position) => {
      const turn = turnOf(message);
      if (turn === 'system') return;
      if (turn === 'user' && previous === 'user') {
        violations.push({ rule: 'alternation', position, detail: `user turn ${describe(message, position)} follows another user turn` });
      }
      previous = turn;
    });
  }
  return violations;
}

/** `tool-results-follow-call`: results answer the open calls of the nearest assistant message; open calls close at the next other message. */
function resultPlacement(messages: readonly Message[]): MessageShapeViolation[] {
  const violations: MessageShapeViolation[] = [];
  let open: { position: number; pending: Set<string> } | undefined;
  const closeOpen = (at: number) => {
    if (!open) return;
    for (const callId of open.pending) {
      violations.push({
        rule: 'tool-results-follow-call',
        position: open.position,
        detail: `tool call "${callId}" of ${describe(messages[open.position]!, open.position)} has no result before message ${at}`,
      });
    }
    open = undefined;
  };
  messages.forEach((message, position) => {
    for (const part of message.parts) {
      if (part.type !== 'tool-result') continue;
      if (open?.pending.delete(part.callId)) continue;
      violations.push({
        rule: 'tool-results-follow-call',
        position,
        detail: `tool result for "${part.callId}" in ${describe(message, position)} does not directly follow its call`,
      });
    }
    if (isResultsOnly(message)) return;
    closeOpen(position);
    const calls = message.role === 'assistant' ? message.parts.filter((part) => part.type === 'tool-call').map((part) => part.callId) : [];
    if (calls.length > 0) open = { position, pending: new Set(calls) };
  });
  // The last assistant message's calls may still be running: only their results followed.
  return violations;
}

/** A rule the output breaks more often than the input: the host's `message-shape` violation. */
export interface MessageShapeRegression {
  readonly rule: MessageShapeRule;
  readonly inputCount: number;
  readonly outputCount: number;
  /** The output's violations of this rule. */
  readonly violations: readonly MessageShapeViolation[];
}

/**
 * The rules of `ruleSet` that `output` breaks more often than `input` does. A source transcript
 * that breaks a rule itself (two user messages in a row, an assistant message first) may be
 * compacted into one that breaks it as often, never more: checking never rejects a provider for
 * its input's own faults.
 */
export function findMessageShapeRegressions(
  input: readonly Message[],
  output: readonly Message[],
  ruleSet: MessageShapeRuleSet = 'strict',
): MessageShapeRegression[] {
  const violationsByRule = violationsByRuleOf(ruleSet);
  const before = violationsByRule(input);
  const after = violationsByRule(output);
  const regressions: MessageShapeRegression[] = [];
  for (const rule of MESSAGE_SHAPE_RULE_SETS[ruleSet]) {
    const inputCount = before.get(rule)?.length ?? 0;
    const violations = after.get(rule) ?? [];
    if (violations.length > inputCount) regressions.push({ rule, inputCount, outputCount: violations.length, violations });
  }
  return regressions;
}

/** Per rule set: each array's violations by rule, remembered while it holds the same messages. */
const violationsByRuleSet = new Map<MessageShapeRuleSet, (messages: readonly Message[]) => ReadonlyMap<MessageShapeRule, readonly MessageShapeViolation[]>>();

function violationsByRuleOf(ruleSet: MessageShapeRuleSet): (messages: readonly Message[]) => ReadonlyMap<MessageShapeRule, readonly MessageShapeViolation[]> {
  let byRule = violationsByRuleSet.get(ruleSet);
  if (byRule === undefined) {
    byRule = messagesMemo((messages) => {
      const grouped = new Map<MessageShapeRule, MessageShapeViolation[]>();
      for (const violation of checkMessageShape(messages, ruleSet)) {
        const group = grouped.get(violation.rule);
        if (group) group.push(violation);
        else grouped.set(violation.rule, [violation]);
      }
      return grouped;
    });
    violationsByRuleSet.set(ruleSet, byRule);
  }
  return byRule;
}
