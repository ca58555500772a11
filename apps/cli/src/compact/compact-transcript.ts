import {
  compactWith,
  createTokenizer,
  TokenCounter,
  type ContextProvider,
  type GoalState,
  type Message,
  type MessageShapeRuleSet,
  type LanguageModel,
  type Logger,
  type ProviderOptions,
  type RemovedContent,
  type TokenEncoding,
} from '@ollm/core';
import { withConversationMessages, type Transcript } from '@ollm/transcripts';
import type { SelectedConversation } from '../read-input.js';
import { resolveLimit, type TokenLimit } from '../parse-limit.js';
import { goalFromMessages, goalKept } from './goal-from-messages.js';

export interface ConversationReport {
  readonly conversation: string;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly limit: number;
  readonly sourceDigest: string;
  readonly coveredThrough: number;
  readonly removed: readonly RemovedContent[];
  readonly limitations: readonly string[];
  /**
   * Wall ms of this conversation's compaction: counting it (for the limit and the report), the
   * provider, the host's validation of its output and the source digest. Reading, parsing and
   * writing the file are not in it.
   */
  readonly timeMs: number;
  /** The goal the transcript's markers set (given to the provider), and whether the output still shows it. */
  readonly goal?: GoalReport;
}

export interface GoalReport {
  readonly description: string;
  readonly source: 'user' | 'assistant';
  readonly kept: boolean;
  readonly lockedDecisions: readonly { readonly description: string; readonly kept: boolean }[];
}

export interface CompactTranscriptOptions {
  readonly transcript: Transcript;
  readonly conversations: readonly SelectedConversation[];
  readonly provider: ContextProvider;
  readonly limit: TokenLimit;
  readonly logdir: string;
  readonly encoding: TokenEncoding;
  readonly logger: Logger;
  /** Each provider's own options, keyed by provider name (config `providerOptions`, `--provider-option`). */
  readonly providerOptions?: ProviderOptions;
  /** Message-shape rules every output must keep (no more broken than the input); default `openai`. */
  readonly shape?: MessageShapeRuleSet;
  readonly abortSignal?: AbortSignal;
  /** For model-based providers; `--model`. */
  readonly model?: LanguageModel;
  /** Called before each conversation, for progress display. */
  readonly onConversation?: (position: number, total: number) => void;
}

export interface CompactedTranscript {
  readonly transcript: Transcript;
  readonly reports: readonly ConversationReport[];
}

/**
 * Compacts each selected conversation with `compactWith`, so every provider output is validated
 * before it is used; conversations not selected are kept as they are. Nothing is written here:
 * the caller writes only after every conversation succeeded.
 */
function goalReport(state: GoalState, source: 'user' | 'assistant', output: readonly Message[]): GoalReport {
  const kept = goalKept(state, output);
  return { description: state.description, source, kept: kept.goal, lockedDecisions: kept.lockedDecisions };
}

export async function compactTranscript(options: CompactTranscriptOptions): Promise<CompactedTranscript> {
  const tokens = new TokenCounter(createTokenizer(options.encoding));
  // Replaced all at once at the end: copying the conversation list per conversation is quadratic.
  const compacted = new Map<number, readonly Message[]>();
  const reports: ConversationReport[] = [];
  for (const [position, { index, conversation }] of options.conversations.entries()) {
    options.onConversation?.(position, options.conversations.length);
    const started = performance.now();
    const tokensBefore = tokens.countMessages(conversation.messages);
    const limit = resolveLimit(options.limit, tokensBefore);
    const goal = goalFromMessages(conversation.messages, options.transcript.format, options.transcript.document);
    const result = await compactWith(options.provider, conversation.messages, {
      config: { limit, logdir: options.logdir },
      context: {
        tokens,
        logger: options.logger,
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
        ...(options.model ? { model: options.model } : {}),
        ...(goal ? { goal: goal.state } : {}),
      },
      ...(options.providerOptions ? { providerOptions: options.providerOptions } : {}),
      ...(options.shape ? { shape: options.shape } : {}),
    });
    // Checked between conversations too: a rule-based provider finishes without looking at it.
    options.abortSignal?.throwIfAborted();
    // Read inside the timing: the host computes it on first read, and it is part of the result.
    const sourceDigest = result.sourceDigest;
    const timeMs = performance.now() - started;
    compacted.set(index, result.messages);
    reports.push({
      conversation: conversation.id,
      tokensBefore: result.stats.tokensBefore,
      tokensAfter: result.stats.tokensAfter,
      limit,
      sourceDigest,
      coveredThrough: result.coveredThrough,
      removed: result.removed,
      limitations: result.limitations,
      // A tenth of a millisecond is all the precision a report reader can use.
      timeMs: Math.round(timeMs * 10) / 10,
      ...(goal ? { goal: goalReport(goal.state, goal.source, result.messages) } : {}),
    });
  }
  return { transcript: withConversationMessages(options.transcript, compacted), reports };
}
