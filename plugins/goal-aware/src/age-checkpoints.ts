import { cutAtSentence, type Checkpoint, type Message, type TokenCounting } from '@ollm/core';
import { CHECKPOINT_HEADER_ALLOWANCE, checkpointMessage, findCheckpoints, keptQuotes, quotesOf, type FoldedQuote } from './checkpoint-message.js';
import { mergeFacts } from './extract-facts.js';
import type { Summariser } from './summariser.js';

export interface AgingOutcome {
  /** Replacement message per input position (same id); positions absent here are unchanged. */
  readonly replaced: Map<number, Message>;
  /** Positions of checkpoint messages merged away into the ultra checkpoint. */
  readonly dropped: Set<number>;
  /** Summaries that aging replaced, for recovery: message id and the old text. */
  readonly superseded: { messageId: string; text: string }[];
  readonly notes: string[];
}

const MAX_KEPT_QUOTES = 20;

type Found = ReturnType<typeof findCheckpoints>[number];

/** The least an aged checkpoint's summary is asked for, however small its share of its level's target. */
const MINIMUM_AGED_TOKENS = 24;

/**
 * Ages the existing checkpoints when a new compression is made. A compression's checkpoints (one
 * per user turn it summarised) age together: those of the newest earlier compression go to level 2
 * (1/2 of summaryMaxTokens), of the one before to level 1 (1/4), and all older ones merge into ONE
 * level-0 checkpoint (1/8) at the position of the newest of them — so all checkpoints together
 * stay bounded however many compressions run. (Where a merged-away checkpoint was the only answer
 * to its user message, the caller leaves a one-line note in its place: turns keep alternating.)
 * A level's target is shared by its checkpoints in proportion to their size (at least
 * `MINIMUM_AGED_TOKENS` each), each beyond the first paying its header allowance out of it, so a
 * level stays within its target plus one allowance.
 * Only the checkpoints that change are sent to the model; a checkpoint already at its level and
 * within its share is left alone. An empty model reply falls back to a sentence-boundary cut.
 */
export async function ageCheckpoints(input: {
  readonly messages: readonly Message[];
  readonly summariser: Summariser;
  readonly levelTargets: readonly [number, number, number, number];
  readonly tokens: TokenCounting;
  readonly now: string;
}): Promise<AgingOutcome> {
  const outcome: AgingOutcome = { replaced: new Map(), dropped: new Set(), superseded: [], notes: [] };
  const existing = findCheckpoints(input.messages);
  // Generations, newest first: the checkpoints one compression made share its number.
  const generationOf = (found: Found) => found.checkpoint.compressionNumber ?? `position ${found.position}`;
  const generations = [...new Set(existing.map(generationOf))].reverse();
  const groups = new Map<string, { level: Checkpoint['level']; members: Found[] }>();
  for (const found of existing) {
    const rank = generations.indexOf(generationOf(found));
    const level = (rank >= 2 ? 0 : Math.min(found.checkpoint.level, 2 - rank)) as Checkpoint['level'];
    // Only level 0 merges; above it each checkpoint ages on its own.
    const key = level === 0 ? '0' : `${level}:${found.position}`;
    const group = groups.get(key) ?? { level, members: [] };
    group.members.push(found);
    groups.set(key, group);
  }
  const summaryTokens = (found: Found) => input.tokens.countText(found.checkpoint.summary);
  const levelTokens = new Map<number, number>();
  const levelCount = new Map<number, number>();
  for (const group of groups.values()) {
    levelTokens.set(group.level, (levelTokens.get(group.level) ?? 0) + group.members.reduce((sum, found) => sum + summaryTokens(found), 0));
    levelCount.set(group.level, (levelCount.get(group.level) ?? 0) + 1);
  }
  for (const group of groups.values()) {
    // The level's checkpoints together stay within its target plus ONE header allowance: each
    // checkpoint beyond the first pays for its header out of the summaries' share.
    const target = input.levelTargets[group.level];
    const count = levelCount.get(group.level) ?? 1;
    const room = Math.max(count * MINIMUM_AGED_TOKENS, target - (count - 1) * CHECKPOINT_HEADER_ALLOWANCE);
    const total = levelTokens.get(group.level) ?? 0;
    const own = group.members.reduce((sum, found) => sum + summaryTokens(found), 0);
    const share = count === 1 || total <= 0 ? target : Math.max(MINIMUM_AGED_TOKENS, Math.min(target, Math.floor((room * own) / total)));
    await ageOne(input, outcome, group.members, group.level, share);
  }
  return outcome;
}

async function ageOne(
  input: Parameters<typeof ageCheckpoints>[0],
  outcome: AgingOutcome,
  group: readonly Found[],
  level: Checkpoint['level'],
  target: number,
): Promise<void> {
  const anchor = group.reduce((newest, found) => (found.position > newest.position ? found : newest));
  const bodyTokens = (found: Found) => input.tokens.countText(found.checkpoint.summary);
  if (group.length === 1 && anchor.checkpoint.level === level && bodyTokens(anchor) <= target) return;
  // Quotes beyond the last few are only in logdir; metadata must not grow without bound either.
  const quotes: FoldedQuote[] = keptQuotes(
    group.flatMap((found) => quotesOf(found.message)),
    MAX_KEPT_QUOTES,
  );
  const quoteBudget = quotes.length > 0 ? Math.floor(target / 4) : 0;
  const summaryTarget = Math.max(24, target - quoteBudget);
  const summaries = group.map((found) => found.checkpoint.summary);
  let summary = await input.summariser.recompress(summaries, summaryTarget, group.length > 1 || level === 0 ? 'ultra' : 'age');
  if (summary === '') {
    summary = cutAtSentence(summaries.join('\n'), summaryTarget, input.tokens.tokenizer);
    outcome.notes.push(
      `goal-aware: the model returned an empty re-compression for checkpoint ${anchor.checkpoint.id}; it was cut to ${summaryTarget} tokens instead`,
    );
  }
  const checkpoints = group.map((found) => found.checkpoint);
  const numbers = checkpoints.map((checkpoint) => checkpoint.compressionNumber ?? 0);
  const facts = mergeFacts(...checkpoints);
  const build = (text: string) =>
    checkpointMessage({
      id: anchor.message.id,
      ...(anchor.message.timestamp !== undefined ? { timestamp: anchor.message.timestamp } : {}),
      checkpoint: {
        id: anchor.checkpoint.id,
        level,
        range: group.length > 1 ? `merged checkpoints of compressions ${Math.min(...numbers)}-${Math.max(...numbers)}` : anchor.checkpoint.range,
        summary: text,
        createdAt: checkpoints.map((checkpoint) => checkpoint.createdAt).sort()[0]!,
        compressedAt: input.now,
        originalTokens: checkpoints.reduce((sum, checkpoint) => sum + checkpoint.originalTokens, 0),
        compressionCount: Math.max(...checkpoints.map((checkpoint) => checkpoint.compressionCount)) + 1,
        compressionNumber: Math.max(...numbers),
        ...facts,
      },
      quotes,
      quoteBudget,
      tokens: input.tokens,
    });
  // Aging never grows a checkpoint: a re-compression not smaller than what it replaces gives way
  // to the old summaries cut to the level's target.
  const before = group.reduce((sum, found) => sum + input.tokens.countMessage(found.message), 0);
  let message = build(summary);
  if (input.tokens.countMessage(message) >= before) {
    message = build(cutAtSentence(summaries.join('\n'), summaryTarget, input.tokens.tokenizer));
    outcome.notes.push(
      `goal-aware: the model's re-compression of checkpoint ${anchor.checkpoint.id} was not smaller; the summary was cut to ${summaryTarget} tokens instead`,
    );
  }
  outcome.replaced.set(anchor.position, message);
  for (const found of group) {
    outcome.superseded.push({ messageId: found.message.id, text: found.checkpoint.summary });
    if (found !== anchor) outcome.dropped.add(found.position);
  }
}
