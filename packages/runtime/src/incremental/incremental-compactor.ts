import { createHash } from 'node:crypto';
import {
  canonicalMessage,
  createTokenizer,
  silentLogger,
  TokenCounter,
  type ContextProvider,
  type LanguageModel,
  type Logger,
  type Message,
  type MessageShapeRuleSet,
  type ProviderOptions,
} from '@ollm/core';
import { createWindowGuardProvider } from '../context/window-guard-provider.js';
import { ContextOverflowError } from '../errors/context-overflow-error.js';
import { compactSpan, DEFAULT_SPAN_TARGET_SHARE } from './compact-span.js';

/** Share of the budget a compaction aims for, so the steps that follow fit without compacting again. */
export const DEFAULT_INCREMENTAL_TARGET_SHARE = DEFAULT_SPAN_TARGET_SHARE;
/** Compactions kept in memory (the newest); one agent run needs one or two. */
export const DEFAULT_INCREMENTAL_CACHE_ENTRIES = 64;

export interface IncrementalCompactorOptions {
  /** The stages, in order; each runs only while the messages are over the target. */
  readonly stages: readonly ContextProvider[];
  /** For model stages (goal-aware, summarize); without one they are skipped. */
  readonly model?: LanguageModel;
  readonly providerOptions?: ProviderOptions;
  /** Default: o200k, shared content cache. */
  readonly tokens?: TokenCounter;
  /** Where removed content is saved (`<logdir>/removed/<sha256>.txt`, read by `ollm recover` and the recall tool). */
  readonly logdir?: string;
  /** Default `openai`: tool results right after their call, nothing empty. */
  readonly shape?: MessageShapeRuleSet;
  readonly targetShare?: number;
  readonly cacheEntries?: number;
  readonly logger?: Logger;
}

/** The room a call has: the window less the reply and whatever else the request carries. */
export interface IncrementalWindow {
  readonly contextSize: number;
  /** Tokens kept for the reply (the call's max output tokens). */
  readonly replyReserve: number;
  /** Tokens the request holds besides the messages (tool definitions). */
  readonly otherTokens?: number;
}

export interface IncrementalFitOptions {
  /**
   * `sourceKeys[i]` names what message i was read from (its JSON, say), when the conversion to
   * messages may lose something that matters for reuse; default: the message's canonical form.
   */
  readonly sourceKeys?: readonly string[];
  /** Anything else the compaction depends on (the model's name, say): part of every key. */
  readonly scope?: string;
  readonly abortSignal?: AbortSignal;
}

/** What one `fit` did. */
export interface IncrementalFit {
  readonly messages: readonly Message[];
  /** `fits`: as given; `reused`: an earlier compaction stood in for the prefix; `compacted`: compacted now. */
  readonly action: 'fits' | 'reused' | 'compacted';
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** How many of the given messages a cached compaction stood for. */
  readonly reusedMessages: number;
  /** Tokens that went through the stages (0 unless `compacted`). */
  readonly processedTokens: number;
  /** Tokens of the messages no cached compaction covered: the new span. */
  readonly newSpanTokens: number;
  /** The stages that changed the messages, over the conversation so far. */
  readonly stages: readonly string[];
  /** sha256 of the pieces removed (the newest 256). */
  readonly references: readonly string[];
}

/** A message's chain key after one previous key, and the source key it was made from. */
interface ChainKey {
  readonly key: string;
  readonly source?: string;
}

interface Entry {
  readonly covered: number;
  readonly messages: readonly Message[];
  readonly stages: readonly string[];
  readonly references: readonly string[];
}

/** Previous keys remembered per message (one per budget or scope it was seen under). */
const CHAIN_KEYS_PER_MESSAGE = 4;

/**
 * The runtime's incremental property for a host that sends the whole conversation on every call
 * (an AI SDK or LangChain agent step, a proxy): `fit` returns the messages as they are when they
 * fit the budget; else the longest prefix an earlier call compacted is replaced by that
 * compaction (found by a chain of digests over the messages, no session id), and only when that
 * is still over the budget is the rest compacted, to `targetShare` of it (the window guard last),
 * and kept for the next call. Each step of an agent run so compacts its new span, not the history.
 * One compaction per conversation at a time: a call made while the same one runs waits for it.
 */
export class IncrementalCompactor {
  readonly #options: IncrementalCompactorOptions;
  readonly #tokens: TokenCounter;
  readonly #cache = new Map<string, Entry>();
  readonly #running = new Map<string, Promise<Entry>>();
  /** Per message object: the chain key it gets after a given previous key. */
  readonly #chainKeys = new WeakMap<Message, Map<string, ChainKey>>();
  readonly #guard;

  constructor(options: IncrementalCompactorOptions) {
    this.#options = options;
    this.#tokens = options.tokens ?? new TokenCounter(createTokenizer('o200k_base'));
    this.#guard = createWindowGuardProvider({ shape: options.shape ?? 'openai' });
  }

  get tokens(): TokenCounter {
    return this.#tokens;
  }

  async fit(messages: readonly Message[], window: IncrementalWindow, options: IncrementalFitOptions = {}): Promise<IncrementalFit> {
    const budget = window.contextSize - window.replyReserve - (window.otherTokens ?? 0);
    const tokensBefore = this.#tokens.countMessages(messages);
    const none = { reusedMessages: 0, processedTokens: 0, newSpanTokens: tokensBefore, stages: [], references: [] };
    if (tokensBefore <= budget) return { messages, action: 'fits', tokensBefore, tokensAfter: tokensBefore, ...none };
    const keys = this.#keys(messages, budget, options.sourceKeys, options.scope);
    let reusedIndex = -1;
    for (let index = keys.length - 1; index >= 0; index -= 1) {
      if (this.#cache.get(keys[index]!)?.covered === index + 1) {
        reusedIndex = index;
        break;
      }
    }
    const reused = reusedIndex >= 0 ? this.#cache.get(keys[reusedIndex]!) : undefined;
    if (reused) this.#touch(keys[reusedIndex]!, reused);
    const tail = messages.slice(reusedIndex + 1);
    const newSpanTokens = this.#tokens.countMessages(tail);
    const candidate = reused ? [...reused.messages, ...tail] : messages;
    if (reused) {
      const candidateTokens = this.#tokens.countMessages(candidate);
      if (candidateTokens <= budget) {
        return {
          messages: candidate,
          action: 'reused',
          tokensBefore,
          tokensAfter: candidateTokens,
          reusedMessages: reused.covered,
          processedTokens: 0,
          newSpanTokens,
          stages: reused.stages,
          references: reused.references,
        };
      }
    }
    const key = keys.at(-1)!;
    let running = this.#running.get(key);
    if (!running) {
      running = this.#compact(candidate, messages.length, window, budget, reused, options.abortSignal).finally(() => this.#running.delete(key));
      this.#running.set(key, running);
    }
    const entry = await running;
    this.#touch(key, entry);
    return {
      messages: entry.messages,
      action: 'compacted',
      tokensBefore,
      tokensAfter: this.#tokens.countMessages(entry.messages),
      reusedMessages: reused?.covered ?? 0,
      processedTokens: this.#tokens.countMessages(candidate),
      newSpanTokens,
      stages: entry.stages,
      references: entry.references,
    };
  }

  #keys(messages: readonly Message[], budget: number, sourceKeys: readonly string[] | undefined, scope: string | undefined): string[] {
    const stages = this.#options.stages.map((stage) => stage.name).join(',');
    let previous = createHash('sha256')
      .update(`ollm-incremental-v1\n${stages}\n${budget}\n${scope ?? ''}`)
      .digest('hex');
    return messages.map((message, index) => {
      const source = sourceKeys?.[index];
      // Messages are immutable values: the same object after the same prefix (and from the same
      // source, when one is named) has the same key, so a live agent's next call hashes only its
      // new messages; the rest are a map lookup (and a string comparison).
      const known = this.#chainKeys.get(message);
      const cached = known?.get(previous);
      if (cached !== undefined && cached.source === source) return (previous = cached.key);
      const key = createHash('sha256')
        .update(previous)
        .update('\n')
        .update(source ?? canonicalMessage(message))
        .digest('hex');
      const keys = known ?? new Map<string, ChainKey>();
      if (keys.size >= CHAIN_KEYS_PER_MESSAGE) keys.clear();
      keys.set(previous, { key, ...(source !== undefined ? { source } : {}) });
      if (!known) this.#chainKeys.set(message, keys);
      return (previous = key);
    });
  }

  #touch(key: string, entry: Entry): void {
    this.#cache.delete(key);
    this.#cache.set(key, entry);
    const limit = this.#options.cacheEntries ?? DEFAULT_INCREMENTAL_CACHE_ENTRIES;
    while (this.#cache.size > limit) this.#cache.delete(this.#cache.keys().next().value!);
  }

  async #compact(
    input: readonly Message[],
    covered: number,
    window: IncrementalWindow,
    budget: number,
    reused: Entry | undefined,
    abortSignal: AbortSignal | undefined,
  ): Promise<Entry> {
    const { stages, model, logdir, providerOptions, shape } = this.#options;
    const done = await compactSpan({
      messages: input,
      stages,
      guard: this.#guard,
      budget,
      targetShare: this.#options.targetShare ?? DEFAULT_INCREMENTAL_TARGET_SHARE,
      tokens: this.#tokens,
      shape: shape ?? 'openai',
      logger: this.#options.logger ?? silentLogger,
      ...(model ? { model } : {}),
      ...(providerOptions ? { providerOptions } : {}),
      ...(logdir !== undefined ? { logdir } : {}),
      ...(abortSignal ? { abortSignal } : {}),
      ...(reused ? { previous: reused } : {}),
    });
    if (done.tokensAfter > budget) {
      throw new ContextOverflowError({
        requestTokens: done.tokensAfter,
        requestLimit: budget,
        contextSize: window.contextSize,
        replyReserve: window.replyReserve,
      });
    }
    return { covered, messages: done.messages, stages: done.stages, references: done.references };
  }
}
