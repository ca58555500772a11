import { TOOL_CALL_OVERHEAD_TOKENS, partText, withParts, type Message, type MessagePart, type TokenCounting } from '@ollm/core';
import type { CountingIdentity } from '../cache/counting-identity.js';
import { cachedListedName } from '../cache/fold-caches.js';
import type { MessageFacts } from '../cache/message-facts.js';
import { TextMemoMap } from '../cache/text-memo.js';
import { RecordingLister, stillChosen, type NameChoice, type NameRanking } from '../digest/name-list.js';
import { namesListTokens } from '../digest/names-list-tokens.js';
import type { FoldedPiece } from '../digest/reference.js';
import { actionsOf } from '../digest/run-digest.js';
import { savedFormPiece } from '../digest/saved-form.js';
import { extractIdentifiers } from '../identifiers/extract-identifiers.js';
import { partVisibleText } from '../identifiers/visible-text.js';
import type { ResolvedFoldOptions } from '../fold-options.js';
import { foldTurn, type FoldedTurn } from './fold-turn.js';
import type { TextMeasure } from './text-measure.js';

/** A turn at one level, with what it costs. */
export interface TurnRendering {
  readonly folded: FoldedTurn;
  readonly tokens: number;
  /** The identifiers its messages still show. */
  visibleNames(): ReadonlySet<string>;
}

export interface RenderContext {
  readonly tokens: TokenCounting;
  readonly index: NameRanking;
  readonly options: ResolvedFoldOptions;
  readonly identity: CountingIdentity;
}

interface Variant {
  /** The choices of names the rendering made: it holds while each would be made again. */
  readonly choices: readonly NameChoice[];
  readonly rendering: TurnRendering;
}

/** Renderings kept per level: the conversation around a turn changes what its digests list only now and then. */
const MAX_VARIANTS = 3;

/**
 * What fold derives from one turn's content, kept across calls under a key of the turn's
 * messages, the counting identity and the options: its names, its tokens, its whole saved form,
 * its actions, and its renderings at levels 1 to 3 (a rendering that lists names is kept with the
 * choices it made, and used again while the conversation would make the same choices).
 */
export class TurnEntry {
  private readonly variants: Variant[][] = [[], [], [], []];
  private ownNames: ReadonlySet<string> | undefined;
  private ownTokens: number | undefined;
  private wholePiece: FoldedPiece | undefined;
  private actionList: readonly string[] | undefined;
  /** What the renderings read from the turn's texts: a rendering made again reads them no more. */
  private readonly memo = new TextMemoMap();
  /** What parts the renderings wrote cost (their text's tokens) and show, noted as they were written. */
  private readonly partTokens = new WeakMap<MessagePart, number>();
  private readonly partNames = new WeakMap<MessagePart, readonly string[]>();

  /** `originals` are the turn's messages as first seen; later calls may pass equal copies. */
  constructor(
    readonly originals: readonly Message[],
    readonly facts: readonly MessageFacts[],
  ) {}

  /** Every identifier the turn's messages mention, in order of appearance. */
  names(): ReadonlySet<string> {
    if (this.ownNames === undefined) {
      const names = new Set<string>();
      for (const fact of this.facts) for (const name of fact.names.keys()) names.add(name);
      this.ownNames = names;
    }
    return this.ownNames;
  }

  /** Tokens of the turn as it is. */
  tokens(counting: TokenCounting): number {
    return (this.ownTokens ??= counting.countMessages(this.originals));
  }

  /** The piece saving the whole turn (level 3 names it). */
  whole(): FoldedPiece {
    return (this.wholePiece ??= savedFormPiece(this.originals[0]!.id, 'turn', this.facts));
  }

  /** The actions of its calls (`grep`, `python`), for the digest of a run of dropped turns. */
  actions(): readonly string[] {
    return (this.actionList ??= actionsOf(this.originals));
  }

  /** The turn at `level` as folding would render it now, from the cache when its choices still hold. */
  rendering(level: 1 | 2 | 3, context: RenderContext): TurnRendering {
    const variants = this.variants[level]!;
    for (let position = 0; position < variants.length; position++) {
      const variant = variants[position]!;
      if (!variant.choices.every((choice) => stillChosen(choice, context.index))) continue;
      if (position > 0) variants.unshift(...variants.splice(position, 1));
      return variant.rendering;
    }
    const lister = new RecordingLister(context.index);
    const measure = this.measure(context);
    const folded = foldTurn(this.originals, level, { tokens: context.tokens, names: lister, options: context.options, memo: this.memo, measure }, () =>
      this.whole(),
    );
    const tokens = context.identity.exactSegments ? this.measuredTokens(folded, context.tokens) : context.tokens.countMessages(folded.messages);
    const rendering = this.renderingOf(folded, tokens);
    variants.unshift({ choices: lister.choices, rendering });
    if (variants.length > MAX_VARIANTS) variants.length = MAX_VARIANTS;
    return rendering;
  }

  /** Measures what a rendering writes; texts are counted only with core's counter (whose messages cost their parts). */
  private measure(context: RenderContext): TextMeasure {
    const { tokens, identity } = context;
    const listedName = (name: string, follower: string): number => cachedListedName(identity, name, follower, () => tokens.countText(` ${name}${follower}`));
    return {
      listed: (lead, names, end) => {
        if (!identity.exactSegments) return undefined;
        const listed = namesListTokens(names, end, listedName);
        return listed === undefined ? undefined : this.textTokens(lead, tokens) + listed;
      },
      text: (text) => (identity.exactSegments ? this.textTokens(text, tokens) : undefined),
      identifiers: (text) => this.identifiers(text),
      note: (part, count, names) => {
        if (count !== undefined) this.partTokens.set(part, count);
        this.partNames.set(part, names);
      },
    };
  }

  private textTokens(text: string, counting: TokenCounting): number {
    return this.memo.of('tokens', text, (value) => counting.countText(value));
  }

  /**
   * `countMessages(folded.messages)` as core's counter counts it: a message as it was costs what it
   * cost; another its overhead and name, then each part its text (as noted when it was written, or
   * counted) and a call its wrapping.
   */
  private measuredTokens(folded: FoldedTurn, counting: TokenCounting): number {
    let total = 0;
    folded.messages.forEach((message, position) => {
      const original = this.originals[position];
      if (message === original) {
        total += counting.countMessage(message);
        return;
      }
      total += counting.countMessage(withParts(message, []));
      for (const part of message.parts) {
        const noted = this.partTokens.get(part);
        const text = noted ?? (original?.parts.includes(part) ? counting.countPartText(part) : this.textTokens(partText(part), counting));
        total += text + (part.type === 'tool-call' ? TOOL_CALL_OVERHEAD_TOKENS : 0);
      }
    });
    return total;
  }

  /** The identifiers a part shows: as noted when it was written, or read once per part. */
  private partIdentifiers(part: MessagePart): readonly string[] {
    let names = this.partNames.get(part);
    if (names === undefined) {
      names = this.identifiers(partVisibleText(part));
      this.partNames.set(part, names);
    }
    return names;
  }

  private identifiers(text: string): readonly string[] {
    return this.memo.of('identifiers', text, (value) => [...extractIdentifiers(value).keys()]);
  }

  private renderingOf(folded: FoldedTurn, tokens: number): TurnRendering {
    let visible: ReadonlySet<string> | undefined;
    return {
      folded,
      tokens,
      visibleNames: () => {
        if (visible === undefined) {
          const names = new Set<string>();
          folded.messages.forEach((message, position) => {
            // A message the level left as it was shows what it mentions.
            if (message === this.originals[position]) {
              for (const name of this.facts[position]!.names.keys()) names.add(name);
              return;
            }
            // As a set, the names of a message are its parts' (no identifier spans two lines).
            for (const part of message.parts) for (const name of this.partIdentifiers(part)) names.add(name);
          });
          visible = names;
        }
        return visible;
      },
    };
  }
}
