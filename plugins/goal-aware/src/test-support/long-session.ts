import {
  compactWith,
  isCheckpointMessage,
  toolTurnGroups,
  type CompactionResult,
  type GoalState,
  type LanguageModel,
  type Message,
  type MessagePart,
  type TokenCounting,
} from '@ollm/core';
import { readTranscript } from '@ollm/transcripts';
import { createGoalAwareProvider } from '../index.js';
import { chatRequests, type FakeModelServer } from '@ollm/fake-model-server';

/** What one compression of the simulated session cost and left. */
export interface SessionStep {
  readonly step: number;
  /** Tokens of everything ever appended: the uncompressed conversation. */
  readonly fullTokens: number;
  readonly contextTokens: number;
  readonly checkpointTokens: number;
  readonly checkpointCount: number;
  /** Prompt tokens the fake server received for this compression (its recorded requests). */
  readonly sentTokens: number;
  readonly modelCalls: number;
  readonly result: CompactionResult;
}

/**
 * The fixture's turns, endlessly: a user message alone, or an assistant message with the tool
 * messages answering it. After the first pass ids and call ids get a suffix so they stay unique.
 */
export async function* fixtureTurns(file: string): AsyncGenerator<Message[]> {
  const { conversations } = await readTranscript(file);
  const messages = conversations[0]!.messages.filter((message) => message.role !== 'system');
  const groups = toolTurnGroups(messages);
  const turns: Message[][] = [];
  // A group is yielded once, at its first message.
  groups.forEach((group, position) => {
    if (group[0] === position) turns.push(group.map((member) => messages[member]!));
  });
  for (let pass = 0; ; pass += 1) {
    for (const turn of turns) yield pass === 0 ? turn : turn.map((message) => renamed(message, `~${pass}`));
  }
}

function renamed(message: Message, suffix: string): Message {
  const parts = message.parts.map((part): MessagePart => ('callId' in part ? { ...part, callId: part.callId + suffix } : part));
  return { ...message, id: message.id + suffix, parts };
}

/**
 * Grows a conversation from a real transcript and compresses it after every `turnsPerStep` turns
 * with goal-aware, through the real client on the fake server, recording what each step cost.
 */
export async function runLongSession(input: {
  readonly file: string;
  readonly steps: number;
  readonly turnsPerStep: number;
  readonly limit: number;
  readonly server: FakeModelServer;
  readonly model: LanguageModel;
  readonly tokens: TokenCounting;
  readonly goal?: GoalState;
  readonly logdir?: string;
}): Promise<SessionStep[]> {
  const { conversations } = await readTranscript(input.file);
  let context: Message[] = conversations[0]!.messages.filter((message) => message.role === 'system');
  let fullTokens = input.tokens.countMessages(context);
  const turns = fixtureTurns(input.file);
  const provider = createGoalAwareProvider();
  const state = new Map<string, unknown>();
  const steps: SessionStep[] = [];
  for (let step = 1; step <= input.steps; step += 1) {
    for (let turn = 0; turn < input.turnsPerStep; turn += 1) {
      const next = (await turns.next()).value as Message[];
      context = [...context, ...next];
      fullTokens += input.tokens.countMessages(next);
    }
    const before = chatRequests(input.server).length;
    const result = await compactWith(provider, context, {
      config: { limit: input.limit, ...(input.logdir ? { logdir: input.logdir } : {}) },
      context: { model: input.model, tokens: input.tokens, state, ...(input.goal ? { goal: input.goal } : {}) },
    });
    context = [...result.messages];
    const sent = chatRequests(input.server).slice(before);
    const checkpoints = context.filter(isCheckpointMessage);
    steps.push({
      step,
      fullTokens,
      contextTokens: input.tokens.countMessages(context),
      checkpointTokens: input.tokens.countMessages(checkpoints),
      checkpointCount: checkpoints.length,
      sentTokens: sent.reduce((sum, request) => sum + request.promptTokens, 0),
      modelCalls: sent.length,
      result,
    });
  }
  return steps;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
