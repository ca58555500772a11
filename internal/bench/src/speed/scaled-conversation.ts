import type { Message } from '@ollm/core';
import type { BenchConversation } from '../fixture-set.js';
import { turnsOf } from '../goal-aware-workload.js';
import { freshTurnCopy } from './next-turn.js';
import { freshCounter } from './speed-contender.js';

export interface ScaledConversation {
  readonly messages: Message[];
  readonly tokens: number;
}

/**
 * A conversation of at least `targetTokens` o200k tokens: the system prompt and task of the first
 * SWE-agent trajectory, then the trajectories' turns (an assistant message and its tool results)
 * over and over, each copy with its own ids and a marker in every text and output (freshTurnCopy),
 * so no two messages are the same object or the same text.
 */
export function scaledConversation(conversations: readonly BenchConversation[], targetTokens: number): ScaledConversation {
  const sources = conversations.filter((conversation) => conversation.kind === 'swe-agent');
  if (sources.length === 0) throw new Error('Scaling needs a SWE-agent trajectory to draw turns from.');
  const first = sources[0]!.messages;
  const head = [first.find((message) => message.role === 'system'), first.find((message) => message.role === 'user')].filter(
    (message): message is Message => message !== undefined,
  );
  const turns = turnsOf(sources);
  if (turns.length === 0) throw new Error('The SWE-agent trajectories have no turns.');
  const counter = freshCounter();
  const messages: Message[] = [...head];
  let tokens = counter.countMessages(head);
  for (let copy = 0; tokens < targetTokens; copy += 1) {
    for (const message of freshTurnCopy(turns[copy % turns.length]!, `copy ${copy}`)) {
      messages.push(message);
      tokens += counter.countMessage(message);
    }
  }
  return { messages, tokens };
}
