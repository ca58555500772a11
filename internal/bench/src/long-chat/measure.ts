import { resolve } from 'node:path';
import { TokenCounter, createTokenizer, type Message } from '@ollm/core';
import { REPOSITORY_ROOT } from '../fixture-set.js';
import { aiSdkLadderStrategy } from '../future-need/peer-ladder.js';
import { createBenchRegistry, langChainStrategy, ollmStrategy, type Strategy } from '../strategies.js';
import { DEFAULT_LONG_CHAT_BUDGETS, DEFAULT_LONG_CHAT_STRATEGIES } from './defaults.js';
import { loadLocomoFolder, type LongChat } from './locomo.js';
import { answerPresent, contextText, evidenceShare } from './presence.js';
import { recencyStrategy } from './recency.js';

/** ../shared/fixtures/locomo-sample beside the repository. */
export const DEFAULT_LOCOMO_FOLDER = resolve(REPOSITORY_ROOT, '..', 'shared', 'fixtures', 'locomo-sample');
export { DEFAULT_LONG_CHAT_BUDGETS, DEFAULT_LONG_CHAT_STRATEGIES };
/** The categories with an answer (5 is adversarial). */
export const ANSWERED_CATEGORIES: readonly number[] = [1, 2, 3, 4];

/**
 * A strategy by name: `langchain` (trimMessages "last", startOn human/ai: the longest tail that
 * fits), `langchain-human` (startOn human), `ai-sdk` (pruneMessages driven to the budget),
 * `recency` (the local baseline), else any ollm pipeline of the bench's registered providers
 * (`fold`, `trim`, `mask,code-aware,trim`).
 */
export function longChatStrategy(name: string, registry = createBenchRegistry()): Strategy {
  switch (name) {
    case 'langchain':
      return langChainStrategy('human-or-ai');
    case 'langchain-human':
      return langChainStrategy('human');
    case 'ai-sdk':
      return aiSdkLadderStrategy;
    case 'recency':
      return recencyStrategy;
    default:
      return ollmStrategy(name, registry);
  }
}

export interface LongChatOptions {
  /** A folder of LoCoMo samples (`*.json`); default `DEFAULT_LOCOMO_FOLDER`. Ignored when `chats` is given. */
  readonly fixtures?: string;
  /** Chats already read (tests build synthetic ones). */
  readonly chats?: readonly LongChat[];
  /** Shares of each chat's tokens; default 0.5, 0.25, 0.1. */
  readonly budgets?: readonly number[];
  /** Names for `longChatStrategy`, or strategies (reported by their `name`); default `DEFAULT_LONG_CHAT_STRATEGIES`. */
  readonly strategies?: readonly (string | Strategy)[];
  /** Called after each run (one chat, one strategy, one budget). */
  readonly onRun?: (run: LongChatRun, done: number, total: number) => void;
}

export interface PresenceCounts {
  /** Questions with at least one evidence turn in the chat. */
  readonly evidenceQuestions: number;
  /** Sum over those questions of the share of their evidence turns present. */
  readonly evidenceShareSum: number;
  /** Those questions with every evidence turn present. */
  readonly evidenceComplete: number;
  /** Questions whose answer the full chat holds (the only ones counted). */
  readonly answersCounted: number;
  readonly answersPresent: number;
}

export interface LongChatRun {
  readonly chat: string;
  readonly strategy: string;
  readonly budget: number;
  readonly limit: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly ratio: number;
  readonly underBudget: boolean;
  readonly messagesBefore: number;
  readonly messagesAfter: number;
  readonly seconds: number;
  readonly error?: string;
  readonly detail?: string;
  readonly presence: PresenceCounts;
  /** Keyed by category (1-4). */
  readonly byCategory: Readonly<Record<string, PresenceCounts>>;
}

export interface LongChatSummary {
  readonly strategy: string;
  readonly budget: number;
  readonly chats: number;
  readonly tokensAfterMedian: number;
  readonly ratioMedian: number;
  readonly ratioMax: number;
  readonly underBudget: number;
  readonly failed: number;
  readonly presence: PresenceCounts;
  readonly byCategory: Readonly<Record<string, PresenceCounts>>;
}

export interface MonotonicityBreak {
  readonly chat: string;
  readonly strategy: string;
  readonly largerBudget: number;
  readonly smallerBudget: number;
  readonly tokensAtLarger: number;
  readonly tokensAtSmaller: number;
}

export interface LongChatFixture {
  readonly id: string;
  readonly sessions: number;
  readonly messages: number;
  readonly tokens: number;
  /** Of `tokens`, the system and user messages' (speaker A's turns): what ollm leaves unedited outside fold's long-chat rule. */
  readonly systemAndUserTokens: number;
  /** Questions of categories 1-4. */
  readonly questions: number;
  readonly evidenceQuestions: number;
  /** Of those questions, how many have their answer in the full chat (the ones counted). */
  readonly answersInFullChat: number;
  /** Of the counted answers, how many the chat also holds outside their evidence turns (found whatever is kept of the evidence). */
  readonly answersOutsideEvidence: number;
  /** Evidence entries naming no turn (e.g. a malformed id). */
  readonly unresolvedEvidence: readonly string[];
  readonly sameSpeakerRuns: number;
}

export interface LongChatReport {
  readonly folder?: string;
  readonly budgets: readonly number[];
  readonly strategies: readonly string[];
  readonly fixtures: readonly LongChatFixture[];
  readonly runs: readonly LongChatRun[];
  readonly summaries: readonly LongChatSummary[];
  readonly monotonicityBreaks: readonly MonotonicityBreak[];
  readonly seconds: number;
}

const EMPTY: PresenceCounts = { evidenceQuestions: 0, evidenceShareSum: 0, evidenceComplete: 0, answersCounted: 0, answersPresent: 0 };

function add(a: PresenceCounts, b: PresenceCounts): PresenceCounts {
  return {
    evidenceQuestions: a.evidenceQuestions + b.evidenceQuestions,
    evidenceShareSum: a.evidenceShareSum + b.evidenceShareSum,
    evidenceComplete: a.evidenceComplete + b.evidenceComplete,
    answersCounted: a.answersCounted + b.answersCounted,
    answersPresent: a.answersPresent + b.answersPresent,
  };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A chat's questions of categories 1-4, each with whether the full chat holds its answer. */
interface ScoredQuestion {
  readonly category: number;
  readonly evidence: readonly string[];
  /** Set only when the full chat holds the answer. */
  readonly answer: string | undefined;
}

function scorableQuestions(chat: LongChat): ScoredQuestion[] {
  const full = contextText(chat.messages);
  return chat.questions
    .filter((question) => ANSWERED_CATEGORIES.includes(question.category))
    .map((question) => ({
      category: question.category,
      evidence: question.evidence,
      answer: question.answer !== undefined && answerPresent(full, question.answer) ? question.answer : undefined,
    }));
}

/** Evidence and answer presence of `questions` in `messages`, in total and by category. */
export function scorePresence(
  messages: readonly Message[],
  questions: readonly ScoredQuestion[],
  turns: ReadonlyMap<string, string>,
): { presence: PresenceCounts; byCategory: Record<string, PresenceCounts> } {
  const context = contextText(messages);
  const byCategory: Record<string, PresenceCounts> = Object.fromEntries(ANSWERED_CATEGORIES.map((category) => [String(category), EMPTY]));
  let presence = EMPTY;
  for (const question of questions) {
    const share = evidenceShare(context, question.evidence, turns);
    const counts: PresenceCounts = {
      evidenceQuestions: share === undefined ? 0 : 1,
      evidenceShareSum: share ?? 0,
      evidenceComplete: share === 1 ? 1 : 0,
      answersCounted: question.answer === undefined ? 0 : 1,
      answersPresent: question.answer !== undefined && answerPresent(context, question.answer) ? 1 : 0,
    };
    presence = add(presence, counts);
    const key = String(question.category);
    byCategory[key] = add(byCategory[key] ?? EMPTY, counts);
  }
  return { presence, byCategory };
}

function describeFixture(chat: LongChat, questions: readonly ScoredQuestion[], tokens: number, systemAndUserTokens: number): LongChatFixture {
  const counted = questions.filter((question) => question.answer !== undefined);
  const outside = counted.filter((question) => {
    const evidence = new Set(question.evidence);
    return answerPresent(contextText(chat.messages.filter((message) => !evidence.has(message.id))), question.answer!);
  });
  return {
    id: chat.id,
    sessions: chat.sessions,
    messages: chat.messages.length,
    tokens,
    systemAndUserTokens,
    questions: questions.length,
    evidenceQuestions: questions.filter((question) => question.evidence.length > 0).length,
    answersInFullChat: counted.length,
    answersOutsideEvidence: outside.length,
    unresolvedEvidence: chat.questions.flatMap((question) => question.unresolvedEvidence),
    sameSpeakerRuns: chat.sameSpeakerRuns.length,
  };
}

/**
 * Compacts each chat (all of it) to each budget (a share of its o200k tokens) with each strategy,
 * then asks, for each question of categories 1-4, how much of its evidence is still there
 * verbatim and whether its answer is (answers the full chat lacks are not counted).
 */
export async function measureLongChat(options: LongChatOptions = {}): Promise<LongChatReport> {
  const started = performance.now();
  const folder = options.chats ? undefined : (options.fixtures ?? DEFAULT_LOCOMO_FOLDER);
  const chats = options.chats ?? loadLocomoFolder(folder!);
  const budgets = [...(options.budgets ?? DEFAULT_LONG_CHAT_BUDGETS)].sort((a, b) => b - a);
  for (const budget of budgets) if (!(budget > 0 && budget < 1)) throw new Error(`budget ${budget} is not a share between 0 and 1`);
  const registry = createBenchRegistry();
  // Resolved before any run, so an unknown name fails at once.
  const strategies = (options.strategies ?? DEFAULT_LONG_CHAT_STRATEGIES).map((entry) =>
    typeof entry === 'string' ? { name: entry, strategy: longChatStrategy(entry, registry) } : { name: entry.name, strategy: entry },
  );
  const counter = new TokenCounter(createTokenizer('o200k_base'));
  const fixtures: LongChatFixture[] = [];
  const runs: LongChatRun[] = [];
  const monotonicityBreaks: MonotonicityBreak[] = [];
  const total = chats.length * strategies.length * budgets.length;
  for (const chat of chats) {
    const questions = scorableQuestions(chat);
    const tokensBefore = counter.countMessages(chat.messages);
    const systemAndUserTokens = chat.messages
      .filter((message) => message.role === 'system' || message.role === 'user')
      .reduce((sum, message) => sum + counter.countMessage(message), 0);
    fixtures.push(describeFixture(chat, questions, tokensBefore, systemAndUserTokens));
    for (const { name, strategy } of strategies) {
      const prepared = strategy.prepare(chat.messages);
      const ofStrategy: LongChatRun[] = [];
      for (const budget of budgets) {
        const limit = Math.floor(tokensBefore * budget);
        const run = prepared.arm(limit, false);
        const runStarted = performance.now();
        await run();
        const seconds = (performance.now() - runStarted) / 1000;
        const output = prepared.output();
        const tokensAfter = counter.countMessages(output);
        const error = prepared.error();
        const detail = prepared.detail?.();
        const result: LongChatRun = {
          chat: chat.id,
          strategy: name,
          budget,
          limit,
          tokensBefore,
          tokensAfter,
          ratio: tokensAfter / limit,
          underBudget: tokensAfter <= limit,
          messagesBefore: chat.messages.length,
          messagesAfter: output.length,
          seconds,
          ...(error !== undefined ? { error } : {}),
          ...(detail !== undefined ? { detail } : {}),
          ...scorePresence(output, questions, chat.turns),
        };
        ofStrategy.push(result);
        runs.push(result);
        options.onRun?.(result, runs.length, total);
      }
      // Budgets run largest first: a smaller budget's output should never be larger.
      for (let index = 1; index < ofStrategy.length; index += 1) {
        const larger = ofStrategy[index - 1]!;
        const smaller = ofStrategy[index]!;
        if (smaller.tokensAfter > larger.tokensAfter) {
          monotonicityBreaks.push({
            chat: chat.id,
            strategy: name,
            largerBudget: larger.budget,
            smallerBudget: smaller.budget,
            tokensAtLarger: larger.tokensAfter,
            tokensAtSmaller: smaller.tokensAfter,
          });
        }
      }
    }
  }
  const summaries: LongChatSummary[] = [];
  for (const { name } of strategies) {
    for (const budget of budgets) {
      const ofCell = runs.filter((run) => run.strategy === name && run.budget === budget);
      const byCategory: Record<string, PresenceCounts> = {};
      for (const category of ANSWERED_CATEGORIES) {
        const key = String(category);
        byCategory[key] = ofCell.reduce((sum, run) => add(sum, run.byCategory[key] ?? EMPTY), EMPTY);
      }
      summaries.push({
        strategy: name,
        budget,
        chats: ofCell.length,
        tokensAfterMedian: median(ofCell.map((run) => run.tokensAfter)),
        ratioMedian: median(ofCell.map((run) => run.ratio)),
        ratioMax: Math.max(...ofCell.map((run) => run.ratio)),
        underBudget: ofCell.filter((run) => run.underBudget).length,
        failed: ofCell.filter((run) => run.error !== undefined).length,
        presence: ofCell.reduce((sum, run) => add(sum, run.presence), EMPTY),
        byCategory,
      });
    }
  }
  return {
    ...(folder !== undefined ? { folder } : {}),
    budgets,
    strategies: strategies.map((entry) => entry.name),
    fixtures,
    runs,
    summaries,
    monotonicityBreaks,
    seconds: (performance.now() - started) / 1000,
  };
}
