import { cannotExceedTokens, isCheckpointMessage, withParts, type Message, type TokenCounting, type ToolCallPart } from '@ollm/core';
import { countingIdentity, type CountingIdentity } from './cache/counting-identity.js';
import { cachedCount, cachedListedName, cachedNameCost, foldCaches } from './cache/fold-caches.js';
import { messageFacts, type MessageFacts } from './cache/message-facts.js';
import { isFoldText, referenceTag, type FoldedPiece } from './digest/reference.js';
import { namesListTokens, type NameFollower } from './digest/names-list-tokens.js';
import { GLOSSARY_LEAD, RUN_NAMES_LEAD, describeActionList, glossaryText, runDigestHead, runDigestText } from './digest/run-digest.js';
import { savedFormPiece } from './digest/saved-form.js';
import { coveredNames } from './identifiers/extract-identifiers.js';
import { NameIndex } from './identifiers/name-index.js';
import { argumentStrings } from './identifiers/visible-text.js';
import { BestFirst } from './steps/best-first.js';
import type { FoldedTurn, FoldLevel } from './turns/fold-turn.js';
import { splitTurns, type Turn } from './turns/split-turns.js';
import { TurnEntry, type RenderContext } from './turns/turn-entry.js';
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

/** The names the fixed messages show, one set per list of fixed messages: choices made against it are checked faster. */
function sharedAlwaysVisible(fixed: readonly MessageFacts[], build: () => ReadonlySet<string>): ReadonlySet<string> {
  let key = 'always-visible';
  for (const fact of fixed) key += `/${fact.key}`;
  let names = foldCaches.alwaysVisible.get(key);
  if (names === undefined) {
    names = build();
    let bytes = key.length;
    for (const name of names) bytes += name.length + 16;
    foldCaches.alwaysVisible.set(key, names, bytes);
  }
  return names;
}

/** A turn as this call uses it at one level: the (cached) rendering with this call's messages, and the ids of the names it shows. */
interface CallRendering {
  readonly folded: FoldedTurn;
  readonly tokens: number;
  readonly visibleIds: Int32Array;
}

const NO_IDS = new Int32Array(0);
const DROPPED: CallRendering = { folded: { messages: [], pieces: [] }, tokens: 0, visibleIds: NO_IDS };

/** What a turn's cache key starts with: the counting identity and the options its renderings depend on. */
function turnKeyPrefix(identity: CountingIdentity, options: ResolvedFoldOptions): string {
  const { minOutputTokens, minCallTokens, maxDigestNames, maxCallNames, maxLineNames, lineCharacters } = options;
  return `${identity.id}/${minOutputTokens}/${minCallTokens}/${maxDigestNames}/${maxCallNames}/${maxLineNames}/${lineCharacters}`;
}

/** The turn's cached entry (by its messages' content keys), or a new one, kept for later calls. */
function turnEntry(prefix: string, originals: readonly Message[], facts: readonly MessageFacts[]): TurnEntry {
  let key = prefix;
  for (const fact of facts) key += `/${fact.key}`;
  let entry = foldCaches.turns.get(key);
  if (entry === undefined) {
    entry = new TurnEntry(originals, facts);
    // The renderings hold digests and one-liners of the turn: a few times less than its saved form.
    let bytes = key.length + 1_024;
    for (const fact of facts) bytes += fact.size;
    foldCaches.turns.set(key, entry, bytes);
  }
  return entry;
}

/**
 * The working state of one call: a level per turn, each turn's rendering per level (from the
 * turn's cached entry) and the running total. Names are counted by id (the index's), in arrays.
 */
class FoldState {
  readonly turns: Turn[];
  readonly entries: TurnEntry[];
  readonly levels: FoldLevel[];
  private readonly renderings: Map<FoldLevel, CallRendering>[];
  /** Per turn: the ids of every name its original messages mention. */
  private readonly nameIds: Int32Array[];
  /** Tokens of the messages fold never edits: no output is smaller. */
  readonly fixedTokens: number;
  private turnTokens: number[];
  /** By name id: tokens one more name costs in a list, -1 until counted. */
  private readonly nameTokens: Float64Array;
  private readonly runPieces = new Map<string, { piece: FoldedPiece; actions: string }>();
  private readonly written = new Map<string, number>();
  private readonly bases = new Map<number, number>();
  // Kept up by deltas as turns change level, so each estimate costs O(1), not a pass over all names.
  private turnTotal = 0;
  private runCount = 0;
  /** By name id: turns (not fixed) that show the name at their level now. */
  private readonly visibleCount: Int32Array;
  /** By name id: turns at level 2 or more whose original messages held the name. */
  private readonly heldCount: Int32Array;
  private lostCost = 0;

  constructor(
    readonly messages: readonly Message[],
    readonly facts: readonly MessageFacts[],
    fixedAt: readonly boolean[],
    readonly context: RenderContext & { readonly index: NameIndex },
    readonly identity: CountingIdentity,
  ) {
    const { index } = context;
    this.turns = splitTurns(messages, (position) => fixedAt[position]!);
    const prefix = turnKeyPrefix(identity, context.options);
    this.entries = this.turns.map((turn) =>
      turnEntry(
        prefix,
        this.originals(turn),
        turn.positions.map((position) => facts[position]!),
      ),
    );
    this.levels = this.turns.map(() => 0);
    this.renderings = this.turns.map(() => new Map());
    this.nameIds = this.entries.map((entry, turn) => (this.turns[turn]!.fixed ? NO_IDS : index.idsOf(entry.names())));
    this.nameTokens = new Float64Array(index.size).fill(-1);
    this.visibleCount = new Int32Array(index.size);
    this.heldCount = new Int32Array(index.size);
    let fixed = 0;
    this.turnTokens = this.turns.map((turn, position) => {
      const count = this.entries[position]!.tokens(context.tokens);
      if (turn.fixed) fixed += count;
      return turn.fixed ? 0 : count;
    });
    this.fixedTokens = fixed;
    this.turnTotal = this.turnTokens.reduce((sum, count) => sum + count, 0);
    for (const ids of this.nameIds) for (const id of ids) this.visibleCount[id]!++;
  }

  private isLost(id: number): boolean {
    return this.heldCount[id]! > 0 && this.visibleCount[id] === 0 && this.context.index.alwaysVisibleIds[id] === 0;
  }

  private count(counts: Int32Array, ids: Int32Array, delta: number): void {
    for (let position = 0; position < ids.length; position++) {
      const id = ids[position]!;
      const before = this.isLost(id);
      counts[id]! += delta;
      const after = this.isLost(id);
      if (before !== after) this.lostCost += after ? this.nameCost(id) : -this.nameCost(id);
    }
  }

  originals(turn: Turn | number): Message[] {
    const { positions } = typeof turn === 'number' ? this.turns[turn]! : turn;
    return positions.map((position) => this.messages[position]!);
  }

  /** The turn at `level`; a level that would not make the turn smaller renders as the level below it. */
  rendering(turn: number, level: FoldLevel): CallRendering {
    const cached = this.renderings[turn]!.get(level);
    if (cached) return cached;
    const entry = this.entries[turn]!;
    let rendered: CallRendering;
    if (level === 0) {
      rendered = { folded: { messages: this.originals(turn), pieces: [] }, tokens: entry.tokens(this.context.tokens), visibleIds: this.nameIds[turn]! };
    } else if (level === 4) {
      rendered = DROPPED;
    } else {
      const cachedRendering = entry.rendering(level, this.context);
      const below = this.rendering(turn, (level - 1) as FoldLevel);
      rendered =
        cachedRendering.tokens >= below.tokens
          ? below
          : {
              folded: this.adopted(turn, cachedRendering.folded),
              tokens: cachedRendering.tokens,
              visibleIds: this.context.index.idsOf(cachedRendering.visibleNames()),
            };
    }
    this.renderings[turn]!.set(level, rendered);
    return rendered;
  }

  /**
   * A cached rendering with this call's messages in place of the equal ones it was made from
   * (a level leaves some messages as they were), so what is kept is the caller's own objects.
   */
  private adopted(turn: number, folded: FoldedTurn): FoldedTurn {
    const cachedOriginals = this.entries[turn]!.originals;
    const positions = this.turns[turn]!.positions;
    if (positions.every((position, offset) => this.messages[position] === cachedOriginals[offset])) return folded;
    const messages = folded.messages.map((message, offset) => (message === cachedOriginals[offset] ? this.messages[positions[offset]!]! : message));
    return { messages, pieces: folded.pieces };
  }

  cost(turn: number, level: FoldLevel): number {
    return level === 4 ? 0 : this.rendering(turn, level).tokens;
  }

  apply(step: Step): void {
    const { turn, level } = step;
    const previous = this.levels[turn]!;
    if (previous >= level) return;
    this.count(this.visibleCount, this.rendering(turn, previous).visibleIds, -1);
    if (previous < 2 && level >= 2) this.count(this.heldCount, this.nameIds[turn]!, 1);
    this.levels[turn] = level;
    this.count(this.visibleCount, this.rendering(turn, level).visibleIds, 1);
    const tokens = this.cost(turn, level);
    this.turnTotal += tokens - this.turnTokens[turn]!;
    this.turnTokens[turn] = tokens;
    if (level === 4) {
      const dropped = (neighbour: number): boolean => this.levels[neighbour] === 4;
      this.runCount += dropped(turn - 1) && dropped(turn + 1) ? -1 : dropped(turn - 1) || dropped(turn + 1) ? 0 : 1;
    }
  }

  /** The ids of every identifier the turn's original messages mention. */
  nameIdsOf(turn: number): Int32Array {
    return this.nameIds[turn]!;
  }

  /** Tokens of the messages fold never edits and of the turns at their levels: the output but its run digests. */
  keptTokens(): number {
    return this.fixedTokens + this.turnTotal;
  }

  /** Names folded turns held that nothing kept shows (system and user messages, kept turns), best first. */
  lostNames(): string[] {
    const { index } = this.context;
    // In order of first appearance among the folded turns, as ties are broken by it.
    const lost: string[] = [];
    const listed = new Uint8Array(index.size);
    this.turns.forEach((turn, position) => {
      if (turn.fixed || this.levels[position]! < 2) return;
      for (const id of this.nameIds[position]!) {
        if (listed[id] === 1 || !this.isLost(id)) continue;
        listed[id] = 1;
        lost.push(index.nameOf(id));
      }
    });
    const covered = coveredNames(lost);
    return index.rank(covered.size === 0 ? lost : lost.filter((name) => !covered.has(name)));
  }

  /** Tokens one more name costs in a list (`, name`). */
  nameCost(id: number): number {
    let cost = this.nameTokens[id]!;
    if (cost < 0) {
      const name = this.context.index.nameOf(id);
      cost = cachedNameCost(this.identity, name, () => this.context.tokens.countText(`, ${name}`));
      this.nameTokens[id] = cost;
    }
    return cost;
  }

  /** `nameCost` of a name the conversation mentions. */
  nameCostOf(name: string): number {
    const id = this.context.index.idOf(name);
    return id === -1 ? this.context.tokens.countText(`, ${name}`) : this.nameCost(id);
  }

  /** The piece saving a run of dropped turns, and what its steps did. */
  runPiece(run: readonly number[]): { piece: FoldedPiece; actions: string } {
    const key = `${run[0]}-${run.at(-1)}`;
    let found = this.runPieces.get(key);
    if (found === undefined) {
      const facts = run.flatMap((turn) => this.entries[turn]!.facts);
      const firstId = this.messages[this.turns[run[0]!]!.positions[0]!]!.id;
      const actions = describeActionList(
        run.flatMap((turn) => this.entries[turn]!.actions()),
        MAX_RUN_ACTIONS,
      );
      found = { piece: savedFormPiece(firstId, 'turns', facts), actions };
      this.runPieces.set(key, found);
    }
    return found;
  }

  /** Tokens of ` name` and what follows it in a list, kept per counting identity. */
  private readonly listedName = (name: string, follower: NameFollower): number =>
    cachedListedName(this.identity, name, follower, () => this.context.tokens.countText(` ${name}${follower}`));

  /** Tokens of `lead` and then `names` as a list (`lead a, b, c`), from the names' own counts when they add up. */
  listTokens(lead: string, names: readonly string[]): number | undefined {
    if (!this.identity.exactSegments) return undefined;
    const listed = namesListTokens(names, '', this.listedName);
    return listed === undefined ? undefined : this.textTokens(lead) + listed;
  }

  /** Tokens of a text written for this call (counted once per call). */
  textTokens(text: string): number {
    let count = this.written.get(text);
    if (count === undefined) {
      count = this.context.tokens.countText(text);
      this.written.set(text, count);
    }
    return count;
  }

  /**
   * Tokens of a run digest: the message at `anchor` with `text` (`head`, then `names` listed) as its
   * only part. With core's counter, a message costs its overhead and name, and then its parts.
   */
  digestTokens(anchor: number, head: string, names: readonly string[], text: string, digest: Message): number {
    if (this.identity.exactSegments) {
      const listed = names.length === 0 ? this.textTokens(text) : this.listTokens(`${head}${RUN_NAMES_LEAD}`, names);
      if (listed !== undefined) return this.messageBase(anchor) + listed;
    }
    return cachedCount(`${this.identity.id} digest ${this.facts[anchor]!.key} ${text}`, () => this.context.tokens.countMessage(digest));
  }

  /** Tokens of the message at `position` with no parts: its overhead and name. */
  private messageBase(position: number): number {
    let count = this.bases.get(position);
    if (count === undefined) {
      count = this.context.tokens.countMessage(withParts(this.messages[position]!, []));
      this.bases.set(position, count);
    }
    return count;
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

  /**
   * The total before the names list, estimated for the digests' own text; `namesRoom` adds what
   * the names folded turns held would cost, up to that many tokens (the list is cut to fit after).
   */
  estimate(namesRoom = 0): number {
    const base = this.fixedTokens + this.turnTotal + this.runCount * RUN_DIGEST_ESTIMATE;
    return base + Math.min(this.lostCost, namesRoom);
  }
}

/** Steps in order, each worked out when first read: how far folding goes is known only as it goes. */
interface StepSequence {
  readonly length: number;
  at(position: number): Step;
}

/** False when no argument of the call can be over `minTokens`, so level 2 leaves the call as it is (see `foldCall`). */
function mayFoldCall(part: ToolCallPart, minTokens: number): boolean {
  const parsed = part.input !== undefined && part.input !== null && typeof part.input === 'object';
  const strings: string[] = [];
  if (parsed) argumentStrings(part.input, strings);
  else if (part.rawInput !== undefined) strings.push(part.rawInput);
  return strings.some((value) => !cannotExceedTokens(value, minTokens));
}

/**
 * Tokens level 2 can save in `turn` at most: those of the parts it may fold (outputs over
 * `minOutputTokens`, calls), with core's counter, whose messages cost their parts; otherwise the
 * saving itself.
 */
function savingBound(state: FoldState, turn: number, exact: () => number): number {
  if (!state.identity.exactSegments) return exact();
  const { tokens, options } = state.context;
  let bound = 0;
  for (const position of state.turns[turn]!.positions) {
    for (const part of state.messages[position]!.parts) {
      if (part.type === 'tool-call') bound += mayFoldCall(part, options.minCallTokens) ? tokens.countPartText(part) : 0;
      else if (part.type === 'tool-result' && !isFoldText(part.output) && tokens.countText(part.output) > options.minOutputTokens)
        bound += tokens.countPartText(part);
    }
  }
  return bound;
}

/**
 * The steps in the order a careful engineer gives things up; see docs/plugins/fold.md. Tool
 * outputs go to digests by tokens saved per name mentioned again later, most first: a turn's
 * digests are rendered only when its saving could be the next (`BestFirst`), so a budget met
 * after a few digests renders a few, not every old turn's.
 */
function plannedSteps(state: FoldState, keepRecent: number, withLimit: boolean): StepSequence {
  const editable = state.turns.map((turn, index) => ({ turn, index })).filter(({ turn }) => !turn.fixed);
  const recent = editable.slice(Math.max(0, editable.length - keepRecent)).map(({ index }) => index);
  const old = editable.slice(0, Math.max(0, editable.length - keepRecent)).map(({ index }) => index);

  const referredLater = (turn: number): number => {
    const last = state.turns[turn]!.positions.at(-1)!;
    let count = 0;
    for (const id of state.nameIdsOf(turn)) if (state.context.index.mentionedAfterId(id, last)) count++;
    return count;
  };
  const candidates = old.map((turn) => ({ turn, refs: referredLater(turn) }));
  const saved = (turn: number): number => state.cost(turn, 1) - state.cost(turn, 2);
  const byValue = new BestFirst(
    candidates,
    ({ turn, refs }) => savingBound(state, turn, () => saved(turn)) / (1 + refs),
    ({ turn, refs }) => saved(turn) / (1 + refs),
    ({ turn }) => turn,
  );

  function* order(): Generator<Step> {
    for (const turn of old) yield { turn, level: 1 };
    for (let next = byValue.next(); next !== undefined; next = byValue.next()) yield { turn: next.turn, level: 2, withNames: true };
    if (!withLimit) return;
    for (const turn of old) yield { turn, level: 3, withNames: true };
    for (const turn of old) yield { turn, level: 4, withNames: true };
    for (const turn of recent) yield { turn, level: 2, withNames: true };
    for (const turn of recent) yield { turn, level: 3 };
    // Last resort, when the system and user messages leave almost nothing: the newest turns go too.
    for (const turn of recent) yield { turn, level: 4 };
  }
  const steps = order();
  const read: Step[] = [];
  return {
    length: 2 * old.length + (withLimit ? 2 * old.length + 3 * recent.length : 0),
    at(position) {
      while (read.length <= position) {
        const step = steps.next();
        if (step.done) throw new RangeError(`fold: no step ${position} (${read.length} planned)`);
        read.push(step.value);
      }
      return read[position]!;
    },
  };
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
 * best first, as many as fit in `limit`. Its tokens are the kept turns' (known per turn) and the
 * digests'.
 */
function assemble(state: FoldState, limit: number | undefined, bare = false): Assembly {
  const { messages, context } = state;
  const slots: (Message | undefined)[] = messages.slice();
  const pieces: FoldedPiece[] = [];
  state.turns.forEach((turn, index) => {
    const level = state.levels[index]!;
    if (level === 0) return;
    const rendered = state.rendering(index, level).folded;
    pieces.push(...rendered.pieces);
    turn.positions.forEach((position, offset) => (slots[position] = rendered.messages[offset]));
  });

  const runs = state.runs().map((run) => {
    const { piece, actions } = state.runPiece(run);
    const anchor = run.flatMap((turn) => state.turns[turn]!.positions).find((position) => messages[position]!.role === 'assistant');
    pieces.push(piece);
    // Bare: not even the digests fit. A run is then left out, unless that would put two user
    // turns side by side (model APIs refuse that): such a run keeps its reference alone.
    const minimal = bare && betweenUserTurns(state, run);
    return { run, piece, anchor: bare && !minimal ? undefined : anchor, minimal, actions };
  });
  const glossaryRun = runs.find((run) => run.anchor !== undefined && !run.minimal);
  // Without a dropped run, the names go at the end of the oldest folded turn's assistant message.
  const glossaryTurn =
    glossaryRun === undefined
      ? state.turns.findIndex((turn, index) => state.levels[index]! >= 2 && turn.positions.some((position) => messages[position]!.role === 'assistant'))
      : -1;
  const glossaryPosition = glossaryTurn === -1 ? undefined : state.turns[glossaryTurn]!.positions.find((position) => messages[position]!.role === 'assistant');
  const glossaryBase = glossaryPosition === undefined ? undefined : slots[glossaryPosition];
  let listed: string[] = [];

  const output = (): { messages: Message[]; tokens: number } => {
    let tokens = state.keptTokens();
    for (const run of runs) {
      if (run.anchor === undefined) continue;
      const names = run.minimal || run !== glossaryRun ? [] : listed;
      const head = run.minimal ? referenceTag(run.piece) : runDigestHead(referenceTag(run.piece), run.run.length, run.actions);
      const text = names.length > 0 ? runDigestText(referenceTag(run.piece), run.run.length, run.actions, names) : head;
      const digest = withParts(messages[run.anchor]!, [{ type: 'text', text }]);
      slots[run.anchor] = digest;
      tokens += state.digestTokens(run.anchor, head, names, text, digest);
    }
    if (glossaryPosition !== undefined && glossaryBase !== undefined) {
      if (listed.length === 0) slots[glossaryPosition] = glossaryBase;
      else {
        const withNames = withParts(glossaryBase, [...glossaryBase.parts, { type: 'text', text: glossaryText(listed) }]);
        slots[glossaryPosition] = withNames;
        // With core's counter the names part costs its text; otherwise the message is counted again.
        tokens += state.listTokens(GLOSSARY_LEAD, listed) ?? context.tokens.countMessage(withNames) - context.tokens.countMessage(glossaryBase);
      }
    }
    const result: Message[] = [];
    for (const message of slots) if (message !== undefined) result.push(message);
    return { messages: result, tokens };
  };

  let result = output();
  if (limit !== undefined && (glossaryRun !== undefined || glossaryBase !== undefined) && result.tokens < limit) {
    // Names best first while the estimate fits; then the exact count decides.
    let room = limit - result.tokens;
    for (const name of state.lostNames()) {
      const cost = state.nameCostOf(name);
      if (cost > room) continue;
      listed.push(name);
      room -= cost;
    }
    result = output();
    while (result.tokens > limit && listed.length > 0) {
      listed = listed.slice(0, listed.length - Math.ceil(listed.length / 16));
      result = output();
    }
  }
  return { messages: result.messages, pieces, tokens: result.tokens };
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
  const identity = countingIdentity(tokens);
  const facts = messages.map(messageFacts);
  const fixedAt = messages.map(isFixedMessage);
  const index = new NameIndex(
    messages,
    (position) => fixedAt[position]!,
    (position) => facts[position]!.names,
    (build) =>
      sharedAlwaysVisible(
        facts.filter((_, position) => fixedAt[position]),
        build,
      ),
  );
  const state = new FoldState(messages, facts, fixedAt, { tokens, index, options, identity }, identity);
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
      for (; next < steps.length; next++) state.apply(steps.at(next));
    } else {
      // Folding goes on until the names the folded turns held fit too, but for at most a share of the
      // budget: past that, dropping more turns to list more names would trade what they say for a list.
      const namesRoom = Math.floor(limit * NAMES_SHARE);
      while (next < steps.length && state.estimate(steps.at(next).withNames ? namesRoom : 0) > limit) state.apply(steps.at(next++));
    }
    assembly = assemble(state, limit);
    if (limit === undefined || assembly.tokens <= limit) break;
    if (next >= steps.length) {
      const bare = assemble(state, limit, true);
      if (bare.tokens < assembly.tokens) assembly = bare;
      break;
    }
    state.apply(steps.at(next++));
  }
  const levels: Partial<Record<FoldLevel, number>> = {};
  state.turns.forEach((turn, turnIndex) => {
    if (turn.fixed) return;
    const level = state.levels[turnIndex]!;
    levels[level] = (levels[level] ?? 0) + 1;
  });
  return { messages: assembly.messages, pieces: assembly.pieces, levels, tokens: assembly.tokens };
}
