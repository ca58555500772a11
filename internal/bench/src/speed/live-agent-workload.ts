import type { BaseMessage } from '@langchain/core/messages';
import { compactWith, isPipelineProvider, type ContextProvider, type Message, type TokenCounter } from '@ollm/core';
import { IncrementalCompactor } from '@ollm/runtime';
import { toLangChainMessages } from '../langchain-messages.js';
import { langChainTokenCounter, langChainTrim } from '../langchain-trim.js';
import { median } from '../measure.js';
import { indexById } from '../original-fields.js';
import type { SpeedConversation } from './in-process-workload.js';
import { timeInterleaved, type TimedParticipant } from './interleaved-timing.js';
import { freshTurnCopy, splitLastTurn } from './next-turn.js';
import { freshCounter, warmCounter } from './speed-contender.js';

/** The name of LangChain's participant: trimMessages with a cached counter on the whole conversation. */
export const LIVE_AGENT_PEER = 'langchain-cached';

/** One participant of the live-agent case on one conversation. */
export interface LiveAgentCase {
  readonly conversation: string;
  /** Tokens of the whole conversation (history and the new turn). */
  readonly tokensBefore: number;
  readonly historyMessages: number;
  readonly turnMessages: number;
  readonly contender: string;
  readonly medianMs: number;
  readonly samples: readonly number[];
  readonly error?: string;
}

export interface LiveAgentOptions {
  readonly rounds: number;
  readonly budget: number;
  readonly onConversation?: (done: number, total: number) => void;
}

/**
 * ollm in a live agent: the history was compacted before (untimed), its counts are cached, and
 * one more turn arrived (counted on arrival, untimed); the whole conversation is compacted again.
 * Every round brings a turn no cache has seen (`freshTurnCopy`), one per participant.
 */
function ollmParticipant(
  name: string,
  provider: ContextProvider,
  history: readonly Message[],
  turn: readonly Message[],
  budget: number,
): TimedParticipant & { setUp(): Promise<void> } {
  let tokens: TokenCounter | undefined;
  let round = 0;
  return {
    name,
    async setUp() {
      tokens = warmCounter(history);
      await compactWith(provider, history, { config: { limit: Math.floor(tokens.countMessages(history) * budget) }, context: { tokens } });
    },
    arm() {
      const counter = tokens!;
      const conversation = [...history, ...freshTurnCopy(turn, `${name} ${(round += 1)}`)];
      const limit = Math.floor(counter.countMessages(conversation) * budget);
      return () => compactWith(provider, conversation, { config: { limit }, context: { tokens: counter } });
    },
  };
}

/** How the incremental participant of a pipeline is named in the report. */
export function incrementalName(pipeline: string): string {
  return `${pipeline} (incremental)`;
}

/**
 * ollm's incremental path in a live agent (the runtime's `IncrementalCompactor`: what `ollm serve`
 * and the AI SDK and LangChain middlewares run): the window is fixed, the history was fitted to it
 * before (untimed), and the whole conversation with one more turn is fitted again. The compaction
 * of the history is found by its prefix digest and stands in for it; only the new turn is counted,
 * and compacted only when that no longer fits.
 */
function incrementalParticipant(
  name: string,
  provider: ContextProvider,
  history: readonly Message[],
  turn: readonly Message[],
  budget: number,
): TimedParticipant & { setUp(): Promise<void> } {
  let compactor: IncrementalCompactor | undefined;
  let contextSize = 0;
  let round = 0;
  return {
    name: incrementalName(name),
    async setUp() {
      const tokens = warmCounter(history);
      compactor = new IncrementalCompactor({ stages: isPipelineProvider(provider) ? provider.stages : [provider], tokens });
      // The window the whole conversation is held to, as the other participants' limit.
      contextSize = Math.floor(tokens.countMessages([...history, ...turn]) * budget);
      await compactor.fit(history, { contextSize, replyReserve: 0 });
    },
    arm() {
      const conversation = [...history, ...freshTurnCopy(turn, `${name} incremental ${(round += 1)}`)];
      compactor!.tokens.countMessages(conversation);
      return () => compactor!.fit(conversation, { contextSize, replyReserve: 0 });
    },
  };
}

/** LangChain: trimMessages on the whole conversation, every message's count already cached by id. */
function langChainParticipant(history: readonly Message[], turn: readonly Message[], budget: number): TimedParticipant {
  const originals = indexById(history);
  const convertedHistory = toLangChainMessages(history);
  const counter = langChainTokenCounter(freshCounter(), originals, new Map<string, number>());
  counter(convertedHistory);
  let round = 0;
  return {
    name: LIVE_AGENT_PEER,
    arm() {
      const copy = freshTurnCopy(turn, `${LIVE_AGENT_PEER} ${(round += 1)}`);
      for (const message of copy) originals.set(message.id, message);
      const conversation: BaseMessage[] = [...convertedHistory, ...toLangChainMessages(copy)];
      const limit = Math.floor(counter(conversation) * budget);
      return () => langChainTrim(conversation, limit, counter, 'human-or-ai');
    },
  };
}

/** The live-agent case on each conversation: ollm's pipelines and LangChain, interleaved. */
export async function measureLiveAgent(
  conversations: readonly SpeedConversation[],
  pipelines: readonly { readonly name: string; readonly provider: ContextProvider }[],
  options: LiveAgentOptions,
): Promise<LiveAgentCase[]> {
  const cases: LiveAgentCase[] = [];
  for (const [index, conversation] of conversations.entries()) {
    const { history, turn } = splitLastTurn(conversation.messages);
    const ollm = pipelines.flatMap(({ name, provider }) => [
      ollmParticipant(name, provider, history, turn, options.budget),
      incrementalParticipant(name, provider, history, turn, options.budget),
    ]);
    const setUpErrors = new Map<string, string>();
    for (const participant of ollm) {
      try {
        await participant.setUp();
      } catch (error) {
        setUpErrors.set(participant.name, error instanceof Error ? error.message : String(error));
      }
    }
    const participants: TimedParticipant[] = [
      ...ollm.filter((participant) => !setUpErrors.has(participant.name)),
      langChainParticipant(history, turn, options.budget),
    ];
    const times = await timeInterleaved(participants, { rounds: options.rounds });
    for (const name of [...pipelines.flatMap((pipeline) => [pipeline.name, incrementalName(pipeline.name)]), LIVE_AGENT_PEER]) {
      const entry = times.get(name);
      const error = setUpErrors.get(name) ?? entry?.error;
      cases.push({
        conversation: conversation.id,
        tokensBefore: conversation.tokens,
        historyMessages: history.length,
        turnMessages: turn.length,
        contender: name,
        medianMs: median(entry?.samples ?? []),
        samples: entry?.samples ?? [],
        ...(error !== undefined ? { error } : {}),
      });
    }
    options.onConversation?.(index + 1, conversations.length);
  }
  return cases;
}
