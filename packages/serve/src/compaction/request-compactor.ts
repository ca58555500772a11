import {
  checkMessageShape,
  formatInteger,
  InvalidTranscriptError,
  readRemovedEntry,
  RECOVERY_FOLDER,
  type ContextProvider,
  type LanguageModel,
  type Logger,
  type Message,
  type MessageShapeRuleSet,
  type ProviderOptions,
  type TokenCounter,
} from '@ollm/core';
import { join } from 'node:path';
import { compactSpan, createWindowGuardProvider, resolveReplyReserve, spanTarget } from '@ollm/runtime';
import { readWireMessages, type WireFormat } from '@ollm/transcripts';
import type { ModelWindow } from '../upstream/model-windows.js';
import type { CachedCompaction, ProxyStore } from '../store/proxy-store.js';
import { leadingMessages, verbatimStart } from './compaction-split.js';
import { prefixKeys } from './prefix-keys.js';
import { shortenTools, TOOLS_SHARE } from './shorten-tools.js';
import { SingleFlight } from './single-flight.js';
import { requestTooLarge } from './request-too-large.js';

/**
 * Share of the budget a compaction aims for, so the turns that follow fit without compacting
 * again: lower than the runtime's (0.7), because every compaction rewrites part of the prompt and
 * a local server then processes that part again; compacting in larger steps, less often, keeps its
 * prompt cache longer (the prompt-cache measure in docs/benchmarks.md).
 */
export const DEFAULT_TARGET_SHARE = 0.5;
/** How long one proxy may hold a conversation's compaction before another takes it over. */
export const COMPACTION_LOCK_MS = 120_000;
const LOCK_POLL_MS = 25;
/** Prefix keys asked for per store round trip, longest first. */
const LOOKUP_CHUNK = 32;
/**
 * A compaction again keeps what the last one wrote byte for byte (so a local server's prompt cache
 * still holds it) while that part is at most this share of the target; past it, everything is compacted anew.
 */
export const KEPT_HEAD_SHARE = 0.75;
/** Messages before the verbatim end the kept part may stop at, so the part compacted again starts a turn (a call, not its result). */
const HEAD_SEARCH = 4;
/**
 * The least share of what the newest turn leaves that the rest of the conversation is compacted
 * to, when the newest turn takes most of the target (a small window, a large tool output).
 */
const NEWEST_REST_SHARE = 0.25;
/** Messages back from the end the newest turn is looked for in (a call with this many results at most). */
const NEWEST_TURN_SEARCH = 16;
const BODY_LABEL = 'request body';

export interface RequestCompactorOptions {
  /** The pipeline's stages, in order; each runs only while the messages are over the target. */
  readonly stages: readonly ContextProvider[];
  /** Text of the pipeline, part of every cache key (`fold`, `mask,code-aware,trim`). */
  readonly pipeline: string;
  readonly providerOptions?: ProviderOptions;
  /** A model for model stages (goal-aware, summarize); without one they are skipped. */
  readonly model?: LanguageModel;
  readonly store: ProxyStore;
  /** Where providers save removed content (`<home>/removed/`). */
  readonly logdir: string;
  readonly tokens: TokenCounter;
  readonly logger: Logger;
  /** Tokens kept for the reply when a request sets no limit; default 15% of the window. */
  readonly replyReserve?: number;
  readonly targetShare?: number;
  readonly shape: MessageShapeRuleSet;
}

/** One chat request, read. */
export interface ChatRequest {
  readonly format: WireFormat;
  readonly model: string;
  readonly body: Record<string, unknown>;
  readonly messages: readonly unknown[];
  readonly window: ModelWindow;
  /** The reply limit the request itself sets (`max_tokens`, `num_predict`). */
  readonly replyLimit?: number;
  /**
   * How far this model's server counts above ollm's local count (its tokenizer, its chat
   * template), learnt from the prompt sizes it reported; 1 when nothing was learnt yet.
   */
  readonly calibration?: number;
  readonly signal?: AbortSignal;
}

/** What the proxy did to one request. */
export interface RequestReport {
  readonly model: string;
  readonly window: number;
  readonly windowSource: ModelWindow['source'];
  readonly reserve: number;
  /** The most the messages may hold: window - reserve - the tools' definitions. */
  readonly budget: number;
  /** Tokens of the tools' definitions (`tools`), as sent. */
  readonly toolsTokens: number;
  /** Tokens of the tools as the request had them, when their descriptions were shortened to fit their share of the window. */
  readonly toolsTokensAsked?: number;
  /** The factor local counts were scaled by before they were held to the budget. */
  readonly calibration: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** `fits`: sent as it came; `reused`: an earlier compaction stood in for its prefix; `compacted`: compacted now; `unread`: not a conversation ollm reads, sent as it came. */
  readonly action: 'fits' | 'reused' | 'compacted' | 'unread';
  /** How many of the client's messages a cached compaction stood for. */
  readonly reusedMessages: number;
  /** Tokens that went through the pipeline for this request (0 when nothing was compacted). */
  readonly processedTokens: number;
  /** Tokens of messages not covered by a cached compaction: the new span. */
  readonly newSpanTokens: number;
  readonly stages: readonly string[];
  /** sha256 of the pieces removed from this conversation, the newest 256 (`ollm recover` takes 12 hex). */
  readonly references: readonly string[];
  /** Pieces this request's compaction removed (0 unless `compacted`). */
  readonly removedNow: number;
  /**
   * Messages at the start of a compaction that the previous compaction sent the same, byte for
   * byte (0 unless `compacted` kept them): a local server's prompt cache still holds them.
   */
  readonly keptMessages: number;
  readonly note?: string;
  /** The reply limit the request set, when the proxy sent a smaller one (what the window leaves). */
  readonly replyLimitAsked?: number;
  /** The reply limit the proxy sent instead. */
  readonly replyLimitSent?: number;
  /** Set once the response came: the prompt size the server reported says it cut the prompt (Ollama's silent truncation). */
  readonly serverCut?: boolean;
}

export interface PreparedChat {
  /** The messages to send, when they changed (undefined: send the body as it came). */
  readonly messages?: unknown[];
  /** The tool definitions to send, when their descriptions were shortened. */
  readonly tools?: unknown;
  /** The reply limit to send, when the request's own would not fit the window. */
  readonly replyLimit?: number;
  readonly report: RequestReport;
}

interface CompactionOutcome {
  readonly entry: CachedCompaction;
  readonly processedTokens: number;
  readonly removedNow: number;
  readonly keptMessages: number;
}

/**
 * Makes one chat request fit its model's window less the reply reserve: sent as it came when it
 * fits; else the longest prefix an earlier request compacted is replaced by that compaction
 * (found by its prefix key, in one store round trip) and, when that is still over the budget, the
 * rest is compacted with the pipeline to `targetShare` of the budget (the window guard last) and
 * kept for the next request. Compacting one conversation happens once at a time, in this process
 * (single flight) and across proxies sharing the store (its lock).
 */
export class RequestCompactor {
  readonly #options: RequestCompactorOptions;
  readonly #flights = new SingleFlight<CompactionOutcome>();
  readonly #guard;

  constructor(options: RequestCompactorOptions) {
    this.#options = options;
    this.#guard = createWindowGuardProvider({ shape: options.shape });
  }

  async prepare(request: ChatRequest): Promise<PreparedChat> {
    const proxyReserve = this.#defaultReserve(request.model, request.window.tokens);
    const reserve = request.replyLimit === undefined ? proxyReserve : Math.min(request.replyLimit, proxyReserve);
    const tools = this.#tools(request, reserve);
    const prepared = await this.#prepareMessages(request, reserve, tools);
    const { report } = prepared;
    if (request.replyLimit === undefined || report.action === 'unread') return prepared;
    // The reply limit a client sets is its wish, not a reservation: what the window leaves after the
    // messages and the tools is what may be asked of the server (never less than the reserve held back).
    const room = report.window - report.toolsTokens - Math.ceil(report.tokensAfter * report.calibration);
    const sent = Math.max(report.reserve, Math.min(request.replyLimit, room));
    if (sent >= request.replyLimit) return prepared;
    return { ...prepared, replyLimit: sent, report: { ...report, replyLimitAsked: request.replyLimit, replyLimitSent: sent } };
  }

  readonly #warnedTools = new Set<string>();

  /**
   * The request's tools, their descriptions shortened when they would take more than their share
   * of the window (the same tools give the same shortened bytes every time).
   */
  #tools(request: ChatRequest, reserve: number): PreparedTools {
    const { tokens, logger } = this.#options;
    const tools = request.body['tools'];
    if (tools === undefined) return { tokens: 0 };
    const calibration = request.calibration ?? 1;
    const limit = Math.floor(((request.window.tokens - reserve) * TOOLS_SHARE) / calibration);
    const shortened = shortenTools(tools, limit, (value) => tokens.countText(JSON.stringify(value)));
    if (shortened.level === 0) return { tokens: shortened.tokens };
    const asked = shortened.askedTokens;
    if (!this.#warnedTools.has(request.model)) {
      this.#warnedTools.add(request.model);
      logger.warn(
        `ollm serve: the tools of ${request.model}'s requests take ${formatInteger(asked)} tokens of its ${formatInteger(request.window.tokens)}-token window; their descriptions are shortened to ${formatInteger(shortened.tokens)} tokens (names and schemas kept) so the conversation has room`,
      );
    }
    return { tools: shortened.tools, tokens: shortened.tokens, asked };
  }

  async #prepareMessages(request: ChatRequest, reserve: number, tools: PreparedTools): Promise<PreparedChat> {
    const { tokens } = this.#options;
    const window = request.window.tokens;
    const toolsTokens = tools.tokens;
    const budget = window - reserve - toolsTokens;
    const calibration = request.calibration ?? 1;
    // The budget in local tokens: what the server will count, scaled back.
    const localBudget = Math.floor(budget / calibration);
    const base = {
      model: request.model,
      window,
      windowSource: request.window.source,
      reserve,
      budget,
      toolsTokens,
      ...(tools.asked !== undefined ? { toolsTokensAsked: tools.asked } : {}),
      calibration,
    };
    const sentTools = tools.tools !== undefined ? { tools: tools.tools } : {};
    let read;
    try {
      read = readWireMessages(request.format, request.messages, BODY_LABEL);
    } catch (error) {
      if (!InvalidTranscriptError.isInstance(error)) throw error;
      // A conversation ollm cannot read is the upstream's to judge: sent as it came.
      return { ...sentTools, report: { ...base, ...unchanged(0), action: 'unread', note: error.message } };
    }
    const tokensBefore = tokens.countMessages(read.messages);
    if (tokensBefore <= localBudget) return { ...sentTools, report: { ...base, ...unchanged(tokensBefore), newSpanTokens: tokensBefore } };
    if (budget <= 0) {
      const asked = request.replyLimit !== undefined ? `the reply limit the request sets (${formatInteger(request.replyLimit)})` : 'the reply reserve';
      throw requestTooLarge({ ...base, tokens: tokensBefore, reason: `${asked}${toolsTokens > 0 ? ' and the tools' : ''} leave no room for messages` });
    }

    const scope = [request.format, request.model, this.#options.pipeline, this.#options.shape, budget, this.#targetShare()].join('\n');
    const keys = prefixKeys(scope, request.messages);
    const { index: reusedIndex, entry: reused } = await this.#longestCached(keys);
    const tail = request.messages.slice(reusedIndex + 1);
    const newSpanTokens = tokens.countMessages(read.messages.slice(reusedIndex + 1));
    if (reused) {
      const candidate = [...reused.messages, ...tail];
      const candidateTokens = tokens.countMessages(readWireMessages(request.format, candidate, BODY_LABEL).messages);
      if (candidateTokens <= localBudget) {
        return {
          ...sentTools,
          messages: candidate,
          report: {
            ...base,
            tokensBefore,
            tokensAfter: candidateTokens,
            action: 'reused',
            reusedMessages: reused.coveredMessages,
            processedTokens: 0,
            removedNow: 0,
            keptMessages: 0,
            newSpanTokens,
            stages: reused.stages,
            references: reused.references,
          },
        };
      }
    }
    const key = keys[keys.length - 1]!;
    const outcome = await this.#flights.run(key, () =>
      this.#compactOnce(key, {
        request,
        reused,
        tail,
        tokensBefore,
        requestMessages: read.messages,
        budget: localBudget,
        base: { ...base, tokens: tokensBefore },
      }),
    );
    return {
      ...sentTools,
      messages: [...outcome.entry.messages],
      report: {
        ...base,
        tokensBefore,
        tokensAfter: outcome.entry.tokensAfter,
        action: 'compacted',
        reusedMessages: reused?.coveredMessages ?? 0,
        processedTokens: outcome.processedTokens,
        removedNow: outcome.removedNow,
        keptMessages: outcome.keptMessages,
        newSpanTokens,
        stages: outcome.entry.stages,
        references: outcome.entry.references,
      },
    };
  }

  readonly #warnedReserve = new Set<string>();

  /** `--reply-reserve`, else 15% of the window; never more than half of it (a larger one is capped, with one warning per model). */
  #defaultReserve(model: string, window: number): number {
    const configured = this.#options.replyReserve;
    const half = Math.floor(window / 2);
    if (configured !== undefined && configured > half) {
      if (!this.#warnedReserve.has(model)) {
        this.#warnedReserve.add(model);
        this.#options.logger.warn(
          `--reply-reserve ${formatInteger(configured)} is over half the ${formatInteger(window)}-token window of ${model}; ${formatInteger(half)} is kept for its replies`,
        );
      }
      return half;
    }
    return resolveReplyReserve(window, configured);
  }

  /**
   * The compaction of the longest prefix in the store: asked for from the longest prefix back, a
   * chunk of keys per round trip, so a conversation compacted a few turns ago costs one small
   * lookup however long it grew (and an entry is read only when it may be the one used).
   */
  async #longestCached(keys: readonly string[]): Promise<{ index: number; entry: CachedCompaction | undefined }> {
    for (let end = keys.length; end > 0; end -= LOOKUP_CHUNK) {
      const start = Math.max(0, end - LOOKUP_CHUNK);
      const found = await this.#options.store.getCompactions(keys.slice(start, end));
      for (let offset = found.length - 1; offset >= 0; offset -= 1) {
        const entry = found[offset];
        if (entry?.coveredMessages === start + offset + 1) return { index: start + offset, entry };
      }
    }
    return { index: -1, entry: undefined };
  }

  #targetShare(): number {
    return this.#options.targetShare ?? DEFAULT_TARGET_SHARE;
  }

  /** Compacts under the store's lock; a proxy that finds the lock taken waits for the other's entry. */
  async #compactOnce(key: string, work: CompactionWork): Promise<CompactionOutcome> {
    const { store } = this.#options;
    let release = await store.tryLock(key, COMPACTION_LOCK_MS);
    if (release) {
      // Another proxy may have stored this very compaction, and let the lock go, since this one looked.
      const [entry] = await store.getCompactions([key]);
      if (entry) {
        await release();
        return { entry, processedTokens: 0, removedNow: 0, keptMessages: 0 };
      }
    } else {
      const waited = await this.#waitForEntry(key, work.request.signal);
      if (waited.entry) return { entry: waited.entry, processedTokens: 0, removedNow: 0, keptMessages: 0 };
      // The holder gave up or died: compact here after all (under the lock, when this proxy got it).
      release = waited.release;
    }
    try {
      const outcome = await this.#compact(work);
      await store.putCompaction(key, outcome.entry);
      return outcome;
    } finally {
      await release?.();
    }
  }

  /**
   * The entry another proxy is compacting, once it is stored; else (the other proxy let the lock go
   * without storing one, or the wait timed out) no entry, with the lock when this proxy took it.
   */
  async #waitForEntry(key: string, signal: AbortSignal | undefined): Promise<{ entry?: CachedCompaction; release?: () => Promise<void> }> {
    const { store } = this.#options;
    const deadline = Date.now() + COMPACTION_LOCK_MS;
    while (Date.now() < deadline) {
      signal?.throwIfAborted();
      const [entry] = await store.getCompactions([key]);
      if (entry) return { entry };
      const release = await store.tryLock(key, COMPACTION_LOCK_MS);
      if (release) {
        // The lock is free again. The holder stores its entry before it lets the lock go, so an
        // entry stored between the look above and this lock is there now: read it under the lock.
        const [stored] = await store.getCompactions([key]);
        if (stored) {
          await release();
          return { entry: stored };
        }
        return { release };
      }
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
    return {};
  }

  async #compact(work: CompactionWork): Promise<CompactionOutcome> {
    if (work.reused) {
      const kept = await this.#compactAfterHead(work, work.reused);
      if (kept) return kept;
    }
    return this.#compactWhole(work);
  }

  /**
   * Compacts only what the last compaction kept verbatim and the new span, after what it wrote:
   * that part (its digests, its reduced turns) stays byte for byte what the previous requests
   * sent, so a local server reuses its prompt cache for it instead of processing the whole prompt
   * again. Undefined when that part is too large a share of the target, or the result would not
   * be a valid conversation under the budget: then everything is compacted anew.
   */
  async #compactAfterHead(work: CompactionWork, reused: CachedCompaction): Promise<CompactionOutcome | undefined> {
    const { request, tail, budget } = work;
    const { tokens, shape } = this.#options;
    const leading = reused.messages.slice(0, leadingMessages(reused.messages, request.messages));
    const target = spanTarget(budget, this.#targetShare());
    const count = (messages: readonly unknown[]) => tokens.countMessages(readWireMessages(request.format, messages, BODY_LABEL).messages);
    const newest = this.#newestTurn(request, leading, tail);
    if (!newest) return undefined;
    let leadingTokens: number;
    try {
      leadingTokens = count(leading);
    } catch (error) {
      if (!InvalidTranscriptError.isInstance(error)) throw error;
      return undefined;
    }
    // What the last compaction wrote (up to what it kept verbatim) is kept; what it kept verbatim
    // and the new span are compacted after it. It may stop a few messages earlier, so that the
    // part compacted again starts a turn (a call, not its result).
    const verbatim = verbatimStart(reused.messages, request.messages, reused.coveredMessages);
    const last = Math.min(verbatim, reused.messages.length - 1);
    for (let end = last; end > Math.max(leading.length, last - HEAD_SEARCH); end -= 1) {
      const head = reused.messages.slice(0, end);
      let headTokens: number;
      let part;
      try {
        headTokens = count(head) - leadingTokens;
        if (headTokens > target * KEPT_HEAD_SHARE) return undefined;
        part = readWireMessages(
          request.format,
          [...leading, ...reused.messages.slice(end), ...tail.slice(0, tail.length - newest.messages.length)],
          BODY_LABEL,
        );
      } catch (error) {
        if (!InvalidTranscriptError.isInstance(error)) throw error;
        continue;
      }
      const partTarget = target - headTokens - newest.tokens;
      if (partTarget <= leadingTokens) return undefined;
      const outcome = await this.#compactMessages(work, part, partTarget, 1);
      const written = outcome.written;
      if (!leading.every((message, index) => JSON.stringify(message) === JSON.stringify(written[index]))) return undefined;
      const messages = [...head, ...written.slice(leading.length), ...newest.messages];
      const read = readWireMessages(request.format, messages, BODY_LABEL).messages;
      const tokensAfter = tokens.countMessages(read);
      if (tokensAfter > budget || breaksShape(read, work.requestMessages, shape)) return undefined;
      return this.#outcome(work, { ...outcome, messages, tokensAfter }, head.length);
    }
    return undefined;
  }

  /**
   * The request's newest turn (its last messages from the last call or message that starts one:
   * a call with its results, or the user's message), with its tokens; undefined when there is
   * none within the new span.
   */
  #newestTurn(request: ChatRequest, leading: readonly unknown[], tail: readonly unknown[]): { messages: readonly unknown[]; tokens: number } | undefined {
    const { tokens } = this.#options;
    for (let start = tail.length - 1; start >= 0 && start >= tail.length - NEWEST_TURN_SEARCH; start -= 1) {
      const messages = tail.slice(start);
      try {
        const read = readWireMessages(request.format, [...leading, ...messages], BODY_LABEL).messages;
        return { messages, tokens: tokens.countMessages(read) - tokens.countMessages(readWireMessages(request.format, leading, BODY_LABEL).messages) };
      } catch (error) {
        if (!InvalidTranscriptError.isInstance(error)) throw error;
      }
    }
    return undefined;
  }

  async #compactWhole(work: CompactionWork): Promise<CompactionOutcome> {
    const { request, reused, tail, budget } = work;
    const input = reused ? [...reused.messages, ...tail] : [...request.messages];
    const kept = await this.#compactBeforeNewest(work, input);
    if (kept) return kept;
    const outcome = await this.#compactMessages(work, readWireMessages(request.format, input, BODY_LABEL), budget, this.#targetShare());
    if (outcome.tokensAfter > budget)
      throw requestTooLarge({ ...work.base, after: outcome.tokensAfter, reason: 'system, user and pinned messages alone are over it' });
    return this.#outcome(work, { ...outcome, messages: outcome.written }, 0);
  }

  /**
   * Compacts everything before the request's newest turn and sends that turn as it came: what the
   * agent just did (a call and its result) is what it works on next, and a pipeline given the
   * whole conversation may fold it when pinned messages (an agent's role-system reminders) leave
   * little room. The rest aims for the target less the newest turn (at the least, what fits beside
   * it). Undefined when there is no such turn, or the result is no valid conversation under the
   * budget: then the whole is compacted as it is.
   */
  async #compactBeforeNewest(work: CompactionWork, input: readonly unknown[]): Promise<CompactionOutcome | undefined> {
    const { request, tail, budget } = work;
    const { tokens, shape } = this.#options;
    const firstUser = input.findIndex((message) => (message as { role?: unknown } | null)?.role === 'user');
    const leading = input.slice(0, firstUser + 1);
    const newest = this.#newestTurn(request, leading, tail);
    if (!newest || newest.messages.length >= input.length - leading.length) return undefined;
    const rest = input.slice(0, input.length - newest.messages.length);
    let part;
    try {
      part = readWireMessages(request.format, rest, BODY_LABEL);
    } catch (error) {
      if (!InvalidTranscriptError.isInstance(error)) throw error;
      return undefined;
    }
    const partBudget = budget - newest.tokens;
    if (partBudget <= 0) return undefined;
    const target = spanTarget(budget, this.#targetShare());
    const partShare = Math.min(1, Math.max(target - newest.tokens, partBudget * NEWEST_REST_SHARE) / partBudget);
    const outcome = await this.#compactMessages(work, part, partBudget, partShare);
    const messages = [...outcome.written, ...newest.messages];
    const read = readWireMessages(request.format, messages, BODY_LABEL).messages;
    const tokensAfter = tokens.countMessages(read);
    if (tokensAfter > budget || breaksShape(read, work.requestMessages, shape)) return undefined;
    return this.#outcome(work, { ...outcome, messages, tokensAfter }, 0);
  }

  /** The pipeline over `wire`'s messages to `targetShare` of `budget`; what it removed saved where every proxy finds it. */
  async #compactMessages(work: CompactionWork, wire: ReturnType<typeof readWireMessages>, budget: number, targetShare: number): Promise<CompactedPart> {
    const { request, reused } = work;
    const { tokens, logdir, store, stages, logger, model, providerOptions, shape } = this.#options;
    const processedTokens = tokens.countMessages(wire.messages);
    const done = await compactSpan({
      messages: wire.messages,
      stages,
      guard: this.#guard,
      budget,
      targetShare,
      tokens,
      shape,
      logger,
      logdir,
      ...(model ? { model } : {}),
      ...(providerOptions ? { providerOptions } : {}),
      ...(request.signal ? { abortSignal: request.signal } : {}),
      ...(reused ? { previous: reused } : {}),
      warningPrefix: 'ollm serve: ',
    });
    if (store.kind !== 'files') await this.#mirrorRemoved(done.removed, logdir);
    return {
      written: wire.write(done.messages),
      tokensAfter: done.tokensAfter,
      stages: done.stages,
      references: done.references,
      removed: done.removed.length,
      processedTokens,
    };
  }

  #outcome(work: CompactionWork, part: CompactedPart & { readonly messages: readonly unknown[] }, keptMessages: number): CompactionOutcome {
    return {
      entry: {
        coveredMessages: work.request.messages.length,
        messages: [...part.messages],
        tokensBefore: work.tokensBefore,
        tokensAfter: part.tokensAfter,
        stages: [...part.stages],
        references: [...part.references],
      },
      processedTokens: part.processedTokens,
      removedNow: part.removed,
      keptMessages,
    };
  }

  /** Copies what providers saved under logdir into a shared store, so any proxy's `ollm recover` finds it. */
  async #mirrorRemoved(references: readonly string[], logdir: string): Promise<void> {
    for (const sha256 of new Set(references)) {
      let entry;
      try {
        entry = readRemovedEntry(join(logdir, RECOVERY_FOLDER, `${sha256}.txt`), sha256);
      } catch {
        continue; // Not saved (a provider without logdir): nothing to copy.
      }
      if (entry.state !== 'damaged') await this.#options.store.putRemoved(sha256, entry.content.toString('utf8'));
    }
  }
}

interface CompactionWork {
  readonly request: ChatRequest;
  readonly reused: CachedCompaction | undefined;
  readonly tail: readonly unknown[];
  readonly tokensBefore: number;
  /** The request's messages as read (once, by prepare): what a compaction may not break more than. */
  readonly requestMessages: readonly Message[];
  /** The budget in local tokens (the calibration applied). */
  readonly budget: number;
  readonly base: Omit<Parameters<typeof requestTooLarge>[0], 'reason' | 'after'>;
}

/** A request's tools as they will be sent: `tools` set only when shortened (`asked`: their tokens before). */
interface PreparedTools {
  readonly tools?: unknown;
  readonly tokens: number;
  readonly asked?: number;
}

/** What the pipeline made of the messages it was given, written back in the request's format. */
interface CompactedPart {
  readonly written: readonly unknown[];
  readonly tokensAfter: number;
  readonly stages: readonly string[];
  readonly references: readonly string[];
  readonly removed: number;
  readonly processedTokens: number;
}

/**
 * True when `messages` break a rule of the message shape the request itself kept: a request
 * that already breaks one (Claude Code's role-system reminders inside `messages` are no
 * `system-first`) may go on breaking it, not a new one.
 */
function breaksShape(messages: readonly Message[], requestMessages: readonly Message[], shape: MessageShapeRuleSet): boolean {
  const broken = checkMessageShape(messages, shape);
  if (broken.length === 0) return false;
  const before = new Set(checkMessageShape(requestMessages, shape).map((violation) => violation.rule));
  return broken.some((violation) => !before.has(violation.rule));
}

function unchanged(tokens: number): Omit<RequestReport, 'model' | 'window' | 'windowSource' | 'reserve' | 'budget' | 'toolsTokens' | 'calibration'> {
  return {
    tokensBefore: tokens,
    tokensAfter: tokens,
    action: 'fits',
    reusedMessages: 0,
    processedTokens: 0,
    removedNow: 0,
    keptMessages: 0,
    newSpanTokens: tokens,
    stages: [],
    references: [],
  };
}
