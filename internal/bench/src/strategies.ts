import type { BaseMessage } from '@langchain/core/messages';
import { pruneMessages, type ModelMessage } from 'ai';
import { TokenCounter, compactWith, createTokenizer, type FoldedMessage, type Message } from '@ollm/core';
import { ProviderRegistry } from '@ollm/runtime';
import codeAware from '@ollm/plugin-code-aware';
import fold from '@ollm/plugin-fold';
import goalAware from '@ollm/plugin-goal-aware';
import mask from '@ollm/plugin-mask';
import trim from '@ollm/plugin-trim';
import { aiSdkLadderStrategy } from './future-need/peer-ladder.js';
import { fromLangChainMessages, toLangChainMessages } from './langchain-messages.js';
import { langChainTokenCounter, langChainTrim, type LangChainStart } from './langchain-trim.js';
import { fromModelMessages, toModelMessages } from './model-messages.js';
import { indexById } from './original-fields.js';

/** A compaction strategy prepared for one conversation: `run` is what gets timed. */
export interface PreparedRun {
  /**
   * Sets up one run (untimed: a fresh token counter, or a warm one that has counted the input
   * already) and returns the compaction to `limit` tokens, which is what gets timed.
   */
  arm(limit: number, warm: boolean): () => Promise<void>;
  /** The last run's output as ollm messages. */
  output(): readonly Message[];
  /** Why the last run failed, if it did. */
  error(): string | undefined;
  /** User messages the last run folded out, as it declared them to the host (a rule-based provider's long-chat rule). */
  folded?(): readonly FoldedMessage[];
  /** What the last run chose, when the strategy picks a setting (the AI SDK ladder's rung). */
  detail?(): string | undefined;
}

/** What a strategy may be told about the conversation besides its messages. */
export interface PrepareContext {
  /**
   * The names (paths, code names, error types) the steps after these messages use: future-need's
   * A probes. Only the names-list baseline reads them, to show what a measure of names alone rewards.
   */
  readonly names?: readonly string[];
}

export interface Strategy {
  readonly name: string;
  /** `ollm`, `LangChain.js`, `AI SDK` or `baseline`. */
  readonly family: string;
  /** True when the strategy aims at a token target (pruneMessages has none). */
  readonly hasTokenTarget: boolean;
  prepare(messages: readonly Message[], context?: PrepareContext): PreparedRun;
}

/** A fresh o200k counter; a warm one has counted `messages` already, as a live session's ledger has. */
export function counterFor(messages: readonly Message[], warm: boolean): TokenCounter {
  const counter = new TokenCounter(createTokenizer('o200k_base'));
  if (warm) counter.countMessages(messages);
  return counter;
}

/**
 * Every ollm plugin the bench depends on, registered by name as the CLI does, so any pipeline of
 * them (`fold`, `mask,code-aware,trim`) can be asked for. goal-aware needs a model: run without one, it
 * fails and the strategy reports the error (its input unchanged).
 */
export const BENCH_PROVIDERS = [fold, trim, mask, codeAware, goalAware] as const;

export function createBenchRegistry(): ProviderRegistry {
  const registry = new ProviderRegistry();
  for (const provider of BENCH_PROVIDERS) registry.register(provider);
  return registry;
}

/**
 * Any ollm pipeline string (`trim`, `mask,code-aware,trim`) through `registry.get` and `compactWith`.
 * An unknown name throws `NoSuchProviderError` (listing the registered names) here, not at run time.
 */
export function ollmStrategy(name: string, registry: ProviderRegistry = createBenchRegistry()): Strategy {
  const provider = registry.get(name);
  return {
    name,
    family: 'ollm',
    hasTokenTarget: true,
    prepare(messages) {
      let output: readonly Message[] = messages;
      let folded: readonly FoldedMessage[] = [];
      let failure: string | undefined;
      return {
        arm(limit, warm) {
          const tokens = counterFor(messages, warm);
          return async () => {
            try {
              const result = await compactWith(provider, messages, { config: { limit }, context: { tokens } });
              output = result.messages;
              folded = result.folded ?? [];
              failure = undefined;
            } catch (error) {
              output = messages;
              folded = [];
              failure = error instanceof Error ? error.message : String(error);
            }
          };
        },
        output: () => output,
        folded: () => folded,
        error: () => failure,
      };
    },
  };
}

export function langChainStrategy(start: LangChainStart): Strategy {
  return {
    name: start === 'human' ? 'langchain trimMessages (startOn human)' : 'langchain trimMessages (startOn human/ai)',
    family: 'LangChain.js',
    hasTokenTarget: true,
    prepare(messages) {
      const originals = indexById(messages);
      const converted = toLangChainMessages(messages);
      const warmCounts = new Map<string, number>();
      let trimmed: BaseMessage[] = converted;
      let holes = 0;
      return {
        arm(limit, warm) {
          const counter = langChainTokenCounter(counterFor(messages, false), originals, warm ? warmCounts : undefined);
          if (warm && warmCounts.size === 0) counter(converted);
          return async () => {
            ({ messages: trimmed, holes } = await langChainTrim(converted, limit, counter, start));
          };
        },
        // Converting back is not part of the timed call: a LangChain application stays in LangChain.
        output: () => fromLangChainMessages(trimmed, originals),
        error: () => (holes > 0 ? 'trimMessages returned undefined in place of messages (no tail starting on a human message fits)' : undefined),
      };
    },
  };
}

/** pruneMessages with its most aggressive settings that keep tool calls and results paired. */
const aiSdkStrategy: Strategy = {
  name: 'ai-sdk pruneMessages',
  family: 'AI SDK',
  hasTokenTarget: false,
  prepare(messages) {
    const originals = indexById(messages);
    const converted = toModelMessages(messages);
    let pruned: ModelMessage[] = converted;
    return {
      arm() {
        return async () => {
          pruned = pruneMessages({ messages: converted, reasoning: 'all', toolCalls: 'before-last-message', emptyMessages: 'remove' });
        };
      },
      output: () => fromModelMessages(pruned, originals),
      error: () => undefined,
    };
  },
};

/**
 * ollm's rule-based providers (registered by name, as the CLI does) and the two competitors:
 * LangChain with either `startOn`, the AI SDK as a filter (no target) and driven to the budget.
 */
export function createStrategies(): Strategy[] {
  const registry = createBenchRegistry();
  return [
    ...['fold', 'trim', 'mask', 'code-aware', 'mask,code-aware,trim'].map((name) => ollmStrategy(name, registry)),
    langChainStrategy('human'),
    langChainStrategy('human-or-ai'),
    aiSdkStrategy,
    aiSdkLadderStrategy,
  ];
}
