import { isCheckpointMessage, isFoldableUserTurn, sha256Hex, userTurnsMayFold, type FoldedMessage, type Message, type TokenCounting } from '@ollm/core';
import type { LineSource } from '../lines/source-lines.js';
import { conversationNames, nameWeight } from '../names/conversation-names.js';
import { excerptLines, headFor, runSummary, sourceHeader, type SourceExcerpt } from '../render/run-digest.js';
import { splitTurns, type Turn } from '../turns/split-turns.js';
import type { ResolvedFoldOptions } from '../fold-options.js';
import { candidateValues, lineContext, type LineContext } from './line-values.js';
import { selectLines, type PricedCandidate } from './select-lines.js';
import { reduceTurn, type ReduceOptions } from '../render/reduced-turn.js';
import { foldedPiece, REFERENCE_LENGTH, referenceTag, type FoldedPiece } from './folded-piece.js';

export type { FoldedPiece } from './folded-piece.js';

/** String arguments of a reduced call over this many tokens are shortened (with their reference inside). */
const MIN_CALL_TOKENS = 120;

export interface FoldedConversation {
  readonly messages: readonly Message[];
  readonly pieces: readonly FoldedPiece[];
  /** Tokens of `messages`, counted with the host's counter. */
  readonly tokens: number;
  /** User messages folded (long chats only), declared to the host. */
  readonly folded: readonly FoldedMessage[];
  /** What the plan did, for the debug log. */
  readonly summary: string;
  /** Every line worth keeping was kept and room is left (a wider window may fit). */
  readonly roomLeft?: boolean;
}

/** Tries at a wider window when every line worth keeping is kept and room is left. */
const MAXIMUM_WIDENINGS = 6;

/** Why fold folded user messages (CompactionResult `folded`). */
export const FOLD_USER_REASON =
  'system and user messages took over half the budget: older user turns folded into a digest (full text saved, and in the session history)';

/** Never edited: system and pinned messages, checkpoints, and user messages unless the chat rule applies. */
function fixedMessage(message: Message): boolean {
  return message.pinned === true || message.role === 'system' || message.role === 'user' || isCheckpointMessage(message);
}

function fixedPositions(messages: readonly Message[], chat: boolean): boolean[] {
  return messages.map((message, position) => fixedMessage(message) && !(chat && isFoldableUserTurn(messages, position)));
}

interface Layout {
  readonly turns: readonly Turn[];
  readonly turnTokens: readonly number[];
  readonly fixedTokens: number;
  /** Editable turns, by index into `turns`, oldest first. */
  readonly editable: readonly number[];
}

function layoutOf(messages: readonly Message[], fixedAt: readonly boolean[], tokens: TokenCounting): Layout {
  const turns = splitTurns(messages, (index) => fixedAt[index]!);
  const turnTokens = turns.map((turn) => tokens.countMessages(turn.positions.map((position) => messages[position]!)));
  let fixedTokens = 0;
  const editable: number[] = [];
  turns.forEach((turn, index) => {
    if (turn.fixed) fixedTokens += turnTokens[index]!;
    else editable.push(index);
  });
  return { turns, turnTokens, fixedTokens, editable };
}

/** Messages as they are saved for recovery: every field, so `ollm recover` gives them back whole. */
export function savedForm(messages: readonly Message[]): string {
  return JSON.stringify(messages, null, 1);
}

interface Run {
  /** Message positions, ascending. */
  readonly positions: readonly number[];
  readonly piece: FoldedPiece;
  readonly head: string;
}

/**
 * Folds a conversation to `limit` tokens, facts first: the newest turns stay verbatim (up to
 * `recentShare` of the room the fixed messages leave, and the newest always when it fits);
 * every older run of turns becomes one digest in place of its first message, holding verbatim the
 * lines of what those turns showed that an agent needs next (exceptions, test summaries,
 * traceback frames, the newest line holding each name, lines it quoted, lines of files it works
 * on), best value per token first, and the names nothing kept shows, in what is left of a small
 * share. Every folded run is saved whole under its reference.
 */
export function foldConversation(
  messages: readonly Message[],
  limit: number | undefined,
  tokens: TokenCounting,
  options: ResolvedFoldOptions,
): FoldedConversation {
  const total = tokens.countMessages(messages);
  const target = limit ?? Math.floor(total / 2);
  if (total <= target) return { messages, pieces: [], tokens: total, folded: [], summary: 'fits' };
  const chat = userTurnsMayFold(messages, target, tokens);
  const fixedAt = fixedPositions(messages, chat);
  const layout = layoutOf(messages, fixedAt, tokens);
  if (layout.editable.length === 0) return { messages, pieces: [], tokens: total, folded: [], summary: 'nothing editable' };
  const names = conversationNames(messages, fixedAt);
  const context = lineContext(messages, chat);
  const room = target - layout.fixedTokens;

  // The window: the newest editable turns, within recentShare of the room (the newest alone within all of it).
  const recentBudget = (room * options.recentShare) / 100;
  let windowStart = layout.editable.length;
  let windowTokens = 0;
  for (let at = layout.editable.length - 1; at >= 0; at--) {
    const turnTokens = layout.turnTokens[layout.editable[at]!]!;
    const allowed = at === layout.editable.length - 1 ? room - 24 : recentBudget;
    if (windowTokens + turnTokens > allowed) break;
    windowTokens += turnTokens;
    windowStart = at;
  }

  let best: FoldedConversation | undefined;
  // Each round keeps fewer lines (by what the last one overshot), then a shorter window.
  for (;;) {
    const attempt = foldWith(messages, tokens, options, { fixedAt, layout, names, context, chat, target, windowStart });
    if (!best || attempt.tokens < best.tokens) best = attempt;
    if (attempt.tokens <= target) break;
    if (windowStart >= layout.editable.length) return best;
    windowStart += 1;
  }
  // Every line worth keeping kept and room left: more turns verbatim while they fit, so a looser
  // limit never gives a smaller output than a tighter one.
  // Widened in growing steps (1, 2, 4, ... turns), a few at most: each try is a whole fold.
  let fitting = best;
  for (let step = 1, tries = 0; fitting.roomLeft && windowStart > 0 && tries < MAXIMUM_WIDENINGS; step *= 2, tries += 1) {
    const start = Math.max(0, windowStart - step);
    const wider = foldWith(messages, tokens, options, { fixedAt, layout, names, context, chat, target, windowStart: start });
    if (wider.tokens > target || wider.tokens <= fitting.tokens) break;
    fitting = wider;
    windowStart = start;
  }
  return fitting;
}

interface Plan {
  readonly fixedAt: readonly boolean[];
  readonly layout: Layout;
  readonly names: ReturnType<typeof conversationNames>;
  readonly context: LineContext;
  readonly chat: boolean;
  readonly target: number;
  /** Index into `layout.editable` of the first turn kept whole. */
  readonly windowStart: number;
}

function foldWith(messages: readonly Message[], tokens: TokenCounting, options: ResolvedFoldOptions, plan: Plan): FoldedConversation {
  const { layout, fixedAt, names, chat, target } = plan;
  const inWindow = new Set<number>();
  for (const turn of layout.editable.slice(plan.windowStart)) for (const position of layout.turns[turn]!.positions) inWindow.add(position);
  const room = target - layout.fixedTokens;

  // Turns just older than the window stay in place, reduced (their calls, their outputs' references
  // and chosen lines), while their skeletons take at most middleShare of the room.
  const reduceOptions = (keptLines: ReduceOptions['keptLines']): ReduceOptions => ({
    tokens,
    minCallTokens: MIN_CALL_TOKENS,
    lineCharacters: options.lineCharacters,
    keptLines,
  });
  const middle = new Map<number, number>(); // turn index -> skeleton tokens
  if (!chat) {
    let spent = 0;
    for (let at = plan.windowStart - 1; at >= 0; at--) {
      const turn = layout.editable[at]!;
      const positions = layout.turns[turn]!.positions;
      if (!positions.some((position) => messages[position]!.role === 'tool')) break;
      const skeleton = tokens.countMessages(
        reduceTurn(
          messages,
          positions,
          reduceOptions(() => []),
        ).messages,
      );
      if (spent + skeleton > (room * options.middleShare) / 100) break;
      spent += skeleton;
      middle.set(turn, skeleton);
    }
  }
  const inMiddle = new Set<number>();
  for (const turn of middle.keys()) for (const position of layout.turns[turn]!.positions) inMiddle.add(position);
  const visible = (position: number) => fixedAt[position]! || inWindow.has(position);

  // Runs of folded turns: consecutive editable turns before the middle, broken by a fixed turn.
  const runs: number[][] = [];
  let current: number[] | undefined;
  for (const turn of layout.turns) {
    const folded = !turn.fixed && !turn.positions.some((position) => inWindow.has(position) || inMiddle.has(position));
    if (!folded) {
      current = undefined;
      continue;
    }
    if (!current) runs.push((current = []));
    current.push(...turn.positions);
  }
  const foldedRuns: Run[] = runs.map((positions) => {
    const originals = positions.map((position) => messages[position]!);
    const content = savedForm(originals);
    const sha256 = sha256Hex(content);
    const piece: FoldedPiece = { messageId: originals[0]!.id, kind: 'turns', content, sha256, originalTokens: tokens.countMessages(originals) };
    return { positions, piece, head: `${referenceTag(sha256)} ${runSummary(messages, positions, chat)}` };
  });

  const sources: LineSource[] = [];
  const runOfMessage = new Map<number, number>();
  foldedRuns.forEach((run, index) => {
    for (const position of run.positions) {
      runOfMessage.set(position, index);
      sources.push(...plan.context.sourcesAt(position));
    }
  });
  for (const position of inMiddle) sources.push(...plan.context.sourcesAt(position).filter((source) => source.origin === 'tool-result'));
  const candidates = candidateValues({ messages, names, context: plan.context, sources, visible, chat });
  const headers = new Map<LineSource, Header>();
  for (const candidate of candidates) {
    if (headers.has(candidate.source)) continue;
    if (inMiddle.has(candidate.source.message)) {
      headers.set(candidate.source, { text: '', inline: false, tokens: 0 });
      continue;
    }
    const { text, inline, output } = sourceHeader(messages, candidate, options.lineCharacters);
    const piece = output === undefined ? undefined : foldedPiece(messages[candidate.source.message]!.id, 'tool-result', output.text, tokens, output.sha256);
    headers.set(candidate.source, { text, inline, tokens: tokens.countText(text) + 1, ...(piece ? { piece } : {}) });
  }
  const priced: PricedCandidate[] = candidates.map((candidate) => ({ ...candidate, tokens: tokens.countText(candidate.line.text) + 1 }));

  const keptTokens =
    layout.fixedTokens +
    layout.editable.slice(plan.windowStart).reduce((sum, turn) => sum + layout.turnTokens[turn]!, 0) +
    [...middle.values()].reduce((sum, skeleton) => sum + skeleton, 0);
  const digestTokens = foldedRuns.reduce((sum, run) => sum + tokens.countMessage(digestMessage(messages, run, run.head)) + 1, 0);
  let lineBudget = target - keptTokens - digestTokens;
  let best: FoldedConversation | undefined;
  let fitting: FoldedConversation | undefined;
  const positiveCandidates = priced.filter((candidate) => candidate.value > 0).length;
  let fits: number | undefined;
  let over: number | undefined;
  for (let round = 0; round < 14; round++) {
    const chosen = lineBudget > 0 ? selectLines(priced, lineBudget, (source) => headers.get(source)!.tokens) : new Set<PricedCandidate>();
    let used = 0;
    for (const candidate of chosen) used += candidate.tokens;
    for (const source of new Set([...chosen].map((candidate) => candidate.source))) used += headers.get(source)!.tokens;
    const namesRoom = Math.min(lineBudget - used, (room * options.namesShare) / 100);
    const output = render(messages, tokens, foldedRuns, runOfMessage, chosen, headers, namesRoom, names, visible, fixedAt);
    // Middle turns, reduced in place with their chosen lines.
    const keptOf = new Map<string, string[]>();
    for (const candidate of [...chosen].sort((a, b) => a.line.index - b.line.index)) {
      if (!inMiddle.has(candidate.source.message)) continue;
      const key = `${candidate.source.message}:${candidate.source.part}`;
      const lines = keptOf.get(key) ?? [];
      lines.push(candidate.line.text);
      keptOf.set(key, lines);
    }
    const pieces: FoldedPiece[] = foldedRuns.map((run) => run.piece);
    // Each tool output a digest quotes is saved on its own too: its header names it by its own reference.
    for (const source of new Set([...chosen].map((candidate) => candidate.source))) {
      const piece = headers.get(source)!.piece;
      if (piece) pieces.push(piece);
    }
    const reducedById = new Map<string, Message>();
    for (const turn of middle.keys()) {
      const reduced = reduceTurn(
        messages,
        layout.turns[turn]!.positions,
        reduceOptions((position, part) => keptOf.get(`${position}:${part}`) ?? []),
      );
      pieces.push(...reduced.pieces);
      for (const message of reduced.messages) reducedById.set(message.id, message);
    }
    const assembled = output.messages.map((message) => reducedById.get(message.id) ?? message);
    const counted = tokens.countMessages(assembled);
    const attempt: FoldedConversation = {
      messages: assembled,
      pieces,
      tokens: counted,
      folded: output.folded,
      summary: `${chat ? 'chat rule; ' : ''}${layout.editable.length - plan.windowStart} turns whole, ${middle.size} reduced, ${foldedRuns.length} runs folded (${foldedRuns.reduce((sum, run) => sum + run.positions.length, 0)} messages), ${chosen.size} lines kept`,
    };
    if (!best || attempt.tokens < best.tokens) best = attempt;
    // Lines are priced one by one, the digest is counted whole: search the line budget whose digest fits best.
    if (counted <= target) {
      if (!fitting || attempt.tokens > fitting.tokens) fitting = attempt;
      fits = lineBudget;
      // Every line worth keeping is kept, or the room left is too small to hold another.
      if (chosen.size === positiveCandidates) return { ...fitting, roomLeft: target - counted > 8 };
      if (target - counted <= 8) return fitting;
      lineBudget = over === undefined ? lineBudget + (target - counted) : Math.floor((fits + over) / 2);
      if (over !== undefined && over - fits <= 8) return fitting;
      continue;
    }
    if (chosen.size === 0) break;
    over = lineBudget;
    lineBudget = fits === undefined ? lineBudget - (counted - target + 2) : Math.floor((fits + over) / 2);
  }
  if (fitting) return fitting;
  if (middle.size > 0) return best!;
  // Not even the digests' first lines fit: bare references, only where one keeps two user turns apart.
  const bare = renderBare(messages, foldedRuns, runOfMessage);
  const counted = tokens.countMessages(bare.messages);
  if (counted < best!.tokens) {
    return {
      messages: bare.messages,
      pieces: foldedRuns.map((run) => run.piece),
      tokens: counted,
      folded: bare.folded,
      summary: `${best!.summary}; bare references`,
    };
  }
  return best!;
}

interface Header {
  readonly text: string;
  readonly inline: boolean;
  readonly tokens: number;
  /** The tool output the header names, saved on its own under the reference it shows. */
  readonly piece?: FoldedPiece;
}

function digestMessage(messages: readonly Message[], run: Run, text: string): Message {
  const first = messages[run.positions[0]!]!;
  const id = first.role === 'assistant' ? first.id : `fold-${run.piece.sha256.slice(0, REFERENCE_LENGTH)}`;
  // The message it stands in for keeps its id, timestamp and author name (a name is part of what the model reads).
  const kept = first.role === 'assistant' ? first : undefined;
  return {
    id,
    role: 'assistant',
    parts: [{ type: 'text', text }],
    ...(kept?.timestamp !== undefined ? { timestamp: kept.timestamp } : {}),
    ...(kept?.name !== undefined ? { name: kept.name } : {}),
  };
}

function render(
  messages: readonly Message[],
  tokens: TokenCounting,
  runs: readonly Run[],
  runOfMessage: ReadonlyMap<number, number>,
  chosen: ReadonlySet<PricedCandidate>,
  headers: ReadonlyMap<LineSource, Header>,
  namesRoom: number,
  names: ReturnType<typeof conversationNames>,
  visible: (position: number) => boolean,
  fixedAt: readonly boolean[],
): { messages: Message[]; folded: FoldedMessage[] } {
  // Kept lines by run, in the order of the conversation.
  const byRun = runs.map(() => new Map<LineSource, PricedCandidate[]>());
  for (const candidate of chosen) {
    const run = runOfMessage.get(candidate.source.message);
    if (run === undefined) continue;
    const lines = byRun[run]!.get(candidate.source) ?? [];
    lines.push(candidate);
    byRun[run]!.set(candidate.source, lines);
  }
  // Names nothing in view shows, for the first digest, as many as `namesRoom` holds.
  const shown = new Set<string>();
  messages.forEach((_, position) => {
    if (visible(position)) for (const name of names.ofMessage[position]!) shown.add(name);
  });
  for (const candidate of chosen) for (const name of candidate.line.names) shown.add(name);
  const hidden = new Map<string, number>();
  for (const run of runs) {
    for (const position of run.positions) {
      if (messages[position]!.role === 'system' || fixedAt[position]) continue;
      for (const name of names.ofMessage[position]!) {
        if (shown.has(name) || hidden.has(name)) continue;
        hidden.set(name, nameWeight(names.stats.get(name)!, messages.length));
      }
    }
  }
  let namesLine = '';
  if (namesRoom > 8 && hidden.size > 0) {
    const ranked = [...hidden].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([name]) => name);
    let left = namesRoom - tokens.countText('names: ') - 1;
    const listed: string[] = [];
    for (const name of ranked) {
      const cost = tokens.countText(`, ${name}`);
      if (cost > left) break;
      listed.push(name);
      left -= cost;
    }
    if (listed.length > 0) namesLine = `names: ${listed.join(', ')}`;
  }

  return assemble(messages, runs, runOfMessage, (run) => {
    const excerpts: SourceExcerpt[] = [...byRun[run]!]
      .sort((a, b) => a[0].message - b[0].message || a[0].part - b[0].part)
      .map(([source, lines]) => {
        const header = headers.get(source)!;
        return { header: header.text, inline: header.inline, lines: lines.sort((a, b) => a.line.index - b.line.index).map((candidate) => candidate.line.text) };
      });
    return digestMessage(
      messages,
      runs[run]!,
      [headFor(runs[run]!.head, excerpts.length > 0), ...excerptLines(excerpts), ...(run === 0 && namesLine ? [namesLine] : [])].join('\n'),
    );
  });
}

/**
 * The conversation with each run replaced by what `digestFor` gives in place of its first message
 * (nothing: the run leaves no message); the user messages of runs are declared folded.
 */
function assemble(
  messages: readonly Message[],
  runs: readonly Run[],
  runOfMessage: ReadonlyMap<number, number>,
  digestFor: (run: number, output: readonly Message[]) => Message | undefined,
): { messages: Message[]; folded: FoldedMessage[] } {
  const output: Message[] = [];
  const folded: FoldedMessage[] = [];
  messages.forEach((message, position) => {
    const run = runOfMessage.get(position);
    if (run === undefined) {
      output.push(message);
      return;
    }
    if (message.role === 'user') folded.push({ messageId: message.id, reason: FOLD_USER_REASON });
    if (runs[run]!.positions[0] !== position) return;
    const digest = digestFor(run, output);
    if (digest) output.push(digest);
  });
  return { messages: output, folded };
}

function renderBare(
  messages: readonly Message[],
  runs: readonly Run[],
  runOfMessage: ReadonlyMap<number, number>,
): { messages: Message[]; folded: FoldedMessage[] } {
  return assemble(messages, runs, runOfMessage, (run, output) => {
    const positions = runs[run]!.positions;
    const before = output[output.length - 1];
    const after = messages[positions[positions.length - 1]! + 1];
    return before?.role === 'user' && (after === undefined || after.role === 'user')
      ? digestMessage(messages, runs[run]!, referenceTag(runs[run]!.piece.sha256))
      : undefined;
  });
}
