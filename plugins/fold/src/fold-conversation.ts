import { isCheckpointMessage, withParts, type Message, type TokenCounting } from '@ollm/core';
import { foldedPiece, referenceTag, type FoldedPiece } from './digest/reference.js';
import { describeActions, glossaryText, runDigestText } from './digest/run-digest.js';
import { coveredNames, extractIdentifiers } from './identifiers/extract-identifiers.js';
import { NameIndex } from './identifiers/name-index.js';
import { visibleText } from './identifiers/visible-text.js';
import { foldTurn, savedForm, type FoldedTurn, type FoldLevel, type FoldTurnContext } from './turns/fold-turn.js';
import { splitTurns, type Turn } from './turns/split-turns.js';
import type { ResolvedFoldOptions } from './fold-options.js';

/** Tokens a run digest costs before its names: the tag, the count of steps and actions, the message. */
const RUN_DIGEST_ESTIMATE = 40;

/** The share of the budget folding makes room for in the names list (`names seen:`). */
const NAMES_SHARE = 0.25;

/** Actions a run digest names at most. */
const MAX_RUN_ACTIONS = 6;

export interface FoldedConversation {
  readonly messages: readonly Message[];
  readonly pieces: readonly FoldedPiece[];
  /** Turns per level reached, e.g. `{ 2: 14, 4: 30 }`. */
  readonly levels: Readonly<Partial<Record<FoldLevel, number>>>;
  readonly tokens: number;
}

interface Step {
  readonly turn: number;
  readonly level: FoldLevel;
  /** The step is taken until the names folded turns held fit too (up to NAMES_SHARE of the budget), not only the turns left. */
  readonly withNames?: boolean;
}

/** Never edited: system, user and pinned messages, and checkpoints (only the provider that made one ages it). */
function isFixedMessage(message: Message): boolean {
  return message.pinned === true || message.role === 'system' || message.role === 'user' || isCheckpointMessage(message);
}

/** The working state: a level per turn, each turn's rendering per level cached, and the running total. */
class FoldState {
  readonly turns: Turn[];
  readonly levels: FoldLevel[];
  private readonly renderings: Map<FoldLevel, FoldedTurn>[];
  /** Tokens of the messages fold never edits: no output is smaller. */
  readonly fixedTokens: number;
  private turnTokens: number[];
  private readonly visibleCache = new Map<FoldedTurn, Set<string>>();
  private readonly nameTokens = new Map<string, number>();
  private readonly namesCache = new Map<number, Set<string>>();
  // Kept up by deltas as turns change level, so each estimate costs O(1), not a pass over all names.
  private turnTotal = 0;
  private runCount = 0;
  private readonly visibleCount = new Map<string, number>();
  private readonly heldCount = new Map<string, number>();
  private lostCost = 0;

  constructor(
    readonly messages: readonly Message[],
    readonly context: FoldTurnContext,
  ) {
    this.turns = splitTurns(messages, (index) => isFixedMessage(messages[index]!));
    this.levels = this.turns.map(() => 0);
    this.renderings = this.turns.map(() => new Map());
    let fixed = 0;
    this.turnTokens = this.turns.map((turn) => {
      const count = this.context.tokens.countMessages(turn.positions.map((position) => messages[position]!));
      if (turn.fixed) fixed += count;
      return turn.fixed ? 0 : count;
    });
    this.fixedTokens = fixed;
    this.turnTotal = this.turnTokens.reduce((sum, count) => sum + count, 0);
    this.turns.forEach((turn, index) => {
      if (!turn.fixed) for (const name of this.namesOf(index)) this.visibleCount.set(name, (this.visibleCount.get(name) ?? 0) + 1);
    });
  }

  private isLost(name: string): boolean {
    return (this.heldCount.get(name) ?? 0) > 0 && (this.visibleCount.get(name) ?? 0) === 0 && !this.context.index.alwaysVisible.has(name);
  }

  private count(counts: Map<string, number>, names: Iterable<string>, delta: number): void {
    for (const name of names) {
      const before = this.isLost(name);
      counts.set(name, (counts.get(name) ?? 0) + delta);
      const after = this.isLost(name);
      if (before !== after) this.lostCost += after ? this.nameCost(name) : -this.nameCost(name);
    }
  }

  originals(turn: number): Message[] {
    return this.turns[turn]!.positions.map((position) => this.messages[position]!);
  }

  /** The turn at `level`; a level that would not make the turn smaller renders as the level below it. */
  rendering(turn: number, level: FoldLevel): FoldedTurn {
    const cached = this.renderings[turn]!.get(level);
    if (cached) return cached;
    let rendered = foldTurn(this.originals(turn), level, this.context);
    if (level > 0 && level < 4) {
      const below = this.rendering(turn, (level - 1) as FoldLevel);
      if (this.context.tokens.countMessages(rendered.messages) >= this.context.tokens.countMessages(below.messages)) rendered = below;
    }
    this.renderings[turn]!.set(level, rendered);
    return rendered;
  }

  cost(turn: number, level: FoldLevel): number {
    return level === 4 ? 0 : this.context.tokens.countMessages(this.rendering(turn, level).messages);
  }

  apply(step: Step): void {
    const { turn, level } = step;
    const previous = this.levels[turn]!;
    if (previous >= level) return;
    this.count(this.visibleCount, this.visibleNames(turn, previous), -1);
    if (previous < 2 && level >= 2) this.count(this.heldCount, this.namesOf(turn), 1);
    this.levels[turn] = level;
    this.count(this.visibleCount, this.visibleNames(turn, level), 1);
    const tokens = this.cost(turn, level);
    this.turnTotal += tokens - this.turnTokens[turn]!;
    this.turnTokens[turn] = tokens;
    if (level === 4) {
      const dropped = (neighbour: number): boolean => this.levels[neighbour] === 4;
      this.runCount += dropped(turn - 1) && dropped(turn + 1) ? -1 : dropped(turn - 1) || dropped(turn + 1) ? 0 : 1;
    }
  }

  /** Every identifier the turn's original messages mention. */
  namesOf(turn: number): Set<string> {
    let names = this.namesCache.get(turn);
    if (names === undefined) {
      names = new Set<string>();
      for (const position of this.turns[turn]!.positions) for (const name of this.context.index.namesOf(position).keys()) names.add(name);
      this.namesCache.set(turn, names);
    }
    return names;
  }

  /** Identifiers a turn still shows at `level` (its level now by default). */
  visibleNames(turn: number, level: FoldLevel = this.levels[turn]!): Set<string> {
    if (level === 0 || level === 4) return level === 0 ? this.namesOf(turn) : new Set();
    const rendered = this.rendering(turn, level);
    let names = this.visibleCache.get(rendered);
    if (names === undefined) {
      names = new Set(rendered.messages.flatMap((message) => [...extractIdentifiers(visibleText(message)).keys()]));
      this.visibleCache.set(rendered, names);
    }
    return names;
  }

  /** Names folded turns held that nothing kept shows (system and user messages, kept turns), best first. */
  lostNames(): string[] {
    const visible = new Set<string>(this.context.index.alwaysVisible);
    const held = new Set<string>();
    this.turns.forEach((turn, index) => {
      if (turn.fixed) return;
      for (const name of this.visibleNames(index)) visible.add(name);
      if (this.levels[index]! >= 2) for (const name of this.namesOf(index)) held.add(name);
    });
    const lost = [...held].filter((name) => !visible.has(name));
    const covered = coveredNames(lost);
    return this.context.index.rank(lost.filter((name) => !covered.has(name)));
  }

  /** Tokens one more name costs in a list (`, name`). */
  nameCost(name: string): number {
    let cost = this.nameTokens.get(name);
    if (cost === undefined) {
      cost = this.context.tokens.countText(`, ${name}`);
      this.nameTokens.set(name, cost);
    }
    return cost;
  }

  /** Maximal runs of consecutive dropped turns (a kept or fixed turn ends a run). */
  runs(): number[][] {
    const runs: number[][] = [];
    let current: number[] = [];
    this.levels.forEach((level, turn) => {
      if (level === 4) current.push(turn);
      else if (current.length > 0) {
        runs.push(current);
        current = [];
      }
    });
    if (current.length > 0) runs.push(current);
    return runs;
  }

  /** The total before names are added to run digests, estimated for the digests' own text. */
  /**
   * The total before the names list, estimated for the digests' own text; `namesRoom` adds what
   * the names folded turns held would cost, up to that many tokens (the list is cut to fit after).
   */
  estimate(namesRoom = 0): number {
    const base = this.fixedTokens + this.turnTotal + this.runCount * RUN_DIGEST_ESTIMATE;
    return base + Math.min(this.lostCost, namesRoom);
  }
}

/** The steps in the order a careful engineer gives things up; see docs/plugins/fold.md. */
function plannedSteps(state: FoldState, keepRecent: number, withLimit: boolean): Step[] {
  const editable = state.turns.map((turn, index) => ({ turn, index })).filter(({ turn }) => !turn.fixed);
  const recent = editable.slice(Math.max(0, editable.length - keepRecent)).map(({ index }) => index);
  const old = editable.slice(0, Math.max(0, editable.length - keepRecent)).map(({ index }) => index);
  const steps: Step[] = old.map((turn) => ({ turn, level: 1 }));

  // Tool outputs to digests: the most tokens saved per name the agent mentions again later, first.
  const referredLater = (turn: number): number => {
    const last = state.turns[turn]!.positions.at(-1)!;
    let count = 0;
    for (const name of state.namesOf(turn)) if (state.context.index.laterMentions(name, last) > 0) count++;
    return count;
  };
  const byValue = old
    .map((turn) => ({ turn, saved: state.cost(turn, 1) - state.cost(turn, 2), refs: referredLater(turn) }))
    .sort((a, b) => b.saved / (1 + b.refs) - a.saved / (1 + a.refs) || a.turn - b.turn);
  steps.push(...byValue.map(({ turn }) => ({ turn, level: 2 as FoldLevel, withNames: true })));
  if (!withLimit) return steps;

  steps.push(...old.map((turn) => ({ turn, level: 3 as FoldLevel, withNames: true })));
  steps.push(...old.map((turn) => ({ turn, level: 4 as FoldLevel, withNames: true })));
  steps.push(...recent.map((turn) => ({ turn, level: 2 as FoldLevel, withNames: true })));
  steps.push(...recent.map((turn) => ({ turn, level: 3 as FoldLevel })));
  // Last resort, when the system and user messages leave almost nothing: the newest turns go too.
  steps.push(...recent.map((turn) => ({ turn, level: 4 as FoldLevel })));
  return steps;
}

/** True when the turns before and after `run` are user turns: dropping the run outright would join them. */
function betweenUserTurns(state: FoldState, run: readonly number[]): boolean {
  const isUserTurn = (turn: number): boolean => {
    const positions = state.turns[turn]?.positions;
    if (positions === undefined) return false;
    const message = state.messages[positions[0]!]!;
    return message.role === 'user' && !message.parts.every((part) => part.type === 'tool-result');
  };
  // System messages between do not separate two user turns.
  const isSystem = (turn: number): boolean => state.turns[turn] !== undefined && state.messages[state.turns[turn]!.positions[0]!]!.role === 'system';
  let before = run[0]! - 1;
  while (isSystem(before)) before--;
  let after = run.at(-1)! + 1;
  while (isSystem(after)) after++;
  return isUserTurn(before) && isUserTurn(after);
}

interface Assembly {
  readonly messages: Message[];
  readonly pieces: FoldedPiece[];
  readonly tokens: number;
}

/**
 * The output: kept turns as rendered, each run of dropped turns as one digest in place of its first
 * assistant message. The first digest lists the names folded turns held that nothing kept shows,
 * best first, as many as fit in `limit`.
 */
function assemble(state: FoldState, limit: number | undefined, bare = false): Assembly {
  const { messages, context } = state;
  const byPosition = new Map<number, Message | undefined>();
  const pieces: FoldedPiece[] = [];
  state.turns.forEach((turn, index) => {
    const rendered = state.levels[index] === 0 ? undefined : state.rendering(index, state.levels[index]!);
    if (rendered) pieces.push(...rendered.pieces);
    turn.positions.forEach((position, offset) => byPosition.set(position, rendered ? rendered.messages[offset] : messages[position]));
  });

  const runs = state.runs().map((run) => {
    const originals = run.flatMap((turn) => state.originals(turn));
    const piece = foldedPiece(originals[0]!.id, 'turns', savedForm(originals));
    const anchor = run.flatMap((turn) => state.turns[turn]!.positions).find((position) => messages[position]!.role === 'assistant');
    for (const turn of run) for (const position of state.turns[turn]!.positions) byPosition.set(position, undefined);
    pieces.push(piece);
    // Bare: not even the digests fit. A run is then left out, unless that would put two user
    // turns side by side (model APIs refuse that): such a run keeps its reference alone.
    const minimal = bare && betweenUserTurns(state, run);
    return { run, piece, anchor: bare && !minimal ? undefined : anchor, minimal, actions: describeActions(originals, MAX_RUN_ACTIONS) };
  });
  const glossaryRun = runs.find((run) => run.anchor !== undefined && !run.minimal);
  // Without a dropped run, the names go at the end of the oldest folded turn's assistant message.
  const glossaryTurn =
    glossaryRun === undefined
      ? state.turns.findIndex((turn, index) => state.levels[index]! >= 2 && turn.positions.some((position) => messages[position]!.role === 'assistant'))
      : -1;
  const glossaryPosition = glossaryTurn === -1 ? undefined : state.turns[glossaryTurn]!.positions.find((position) => messages[position]!.role === 'assistant');
  const glossaryBase = glossaryPosition === undefined ? undefined : byPosition.get(glossaryPosition);
  let listed: string[] = [];

  const output = (): Message[] => {
    for (const run of runs) {
      if (run.anchor === undefined) continue;
      const names = run === glossaryRun ? listed : [];
      const text = run.minimal ? referenceTag(run.piece) : runDigestText(referenceTag(run.piece), run.run.length, run.actions, names);
      byPosition.set(run.anchor, withParts(messages[run.anchor]!, [{ type: 'text', text }]));
    }
    if (glossaryPosition !== undefined && glossaryBase !== undefined) {
      byPosition.set(
        glossaryPosition,
        listed.length === 0 ? glossaryBase : withParts(glossaryBase, [...glossaryBase.parts, { type: 'text', text: glossaryText(listed) }]),
      );
    }
    return [...byPosition.entries()].sort((a, b) => a[0] - b[0]).flatMap(([, message]) => (message ? [message] : []));
  };

  let result = output();
  let total = context.tokens.countMessages(result);
  if (limit !== undefined && (glossaryRun !== undefined || glossaryBase !== undefined) && total < limit) {
    // Names best first while the estimate fits; then the exact count decides.
    let room = limit - total;
    for (const name of state.lostNames()) {
      const cost = state.nameCost(name);
      if (cost > room) continue;
      listed.push(name);
      room -= cost;
    }
    result = output();
    total = context.tokens.countMessages(result);
    while (total > limit && listed.length > 0) {
      listed = listed.slice(0, listed.length - Math.ceil(listed.length / 16));
      result = output();
      total = context.tokens.countMessages(result);
    }
  }
  return { messages: result, pieces, tokens: total };
}

/**
 * Folds a conversation step by step until it fits `limit` (without a limit: old reasoning and old
 * tool outputs only). System, user and pinned messages and checkpoints are never edited.
 */
export function foldConversation(
  messages: readonly Message[],
  limit: number | undefined,
  tokens: TokenCounting,
  options: ResolvedFoldOptions,
): FoldedConversation {
  const index = new NameIndex(messages, (position) => isFixedMessage(messages[position]!));
  const state = new FoldState(messages, { tokens, index, options });
  // The system and user messages alone over the limit: no output fits. What fold may edit is then
  // compacted by the ratio asked (limit / total), so the newest turns and the names stay in view.
  if (limit !== undefined && state.fixedTokens > limit) {
    const total = tokens.countMessages(messages);
    limit = state.fixedTokens + Math.floor((limit / Math.max(1, total)) * (total - state.fixedTokens));
  }
  const steps = plannedSteps(state, options.keepRecentTurns, limit !== undefined);
  let next = 0;
  let assembly: Assembly | undefined;
  for (;;) {
    if (limit === undefined) {
      for (; next < steps.length; next++) state.apply(steps[next]!);
    } else {
      // Folding goes on until the names the folded turns held fit too, but for at most a share of the
      // budget: past that, dropping more turns to list more names would trade what they say for a list.
      const namesRoom = Math.floor(limit * NAMES_SHARE);
      while (next < steps.length && state.estimate(steps[next]!.withNames ? namesRoom : 0) > limit) state.apply(steps[next++]!);
    }
    assembly = assemble(state, limit);
    if (limit === undefined || assembly.tokens <= limit) break;
    if (next >= steps.length) {
      const bare = assemble(state, limit, true);
      if (bare.tokens < assembly.tokens) assembly = bare;
      break;
    }
    state.apply(steps[next++]!);
  }
  const levels: Partial<Record<FoldLevel, number>> = {};
  state.turns.forEach((turn, turnIndex) => {
    if (turn.fixed) return;
    const level = state.levels[turnIndex]!;
    levels[level] = (levels[level] ?? 0) + 1;
  });
  return { messages: assembly.messages, pieces: assembly.pieces, levels, tokens: assembly.tokens };
}
