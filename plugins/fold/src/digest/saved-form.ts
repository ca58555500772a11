import { createHash, type Hash } from 'node:crypto';
import type { Message, TokenCounting } from '@ollm/core';
import type { CountingIdentity } from '../cache/counting-identity.js';
import { cachedCount, foldCaches } from '../cache/fold-caches.js';
import type { MessageFacts } from '../cache/message-facts.js';
import type { FoldedPiece } from './reference.js';

/** Messages as they are saved for recovery: every field, so `ollm recover` gives them back whole. */
export function savedForm(messages: readonly Message[]): string {
  return JSON.stringify(messages, null, 1);
}

/** `savedForm` of the messages with `facts`, from their elements (`[`, the elements joined by `,`, `]`, on lines of their own). */
export function savedFormOf(facts: readonly MessageFacts[]): string {
  return facts.length === 0 ? '[]' : `[\n${facts.map((fact) => fact.element).join(',\n')}\n]`;
}

/**
 * sha256 states of saved forms that begin with one message: `states[i]` has read `[\n`, then the
 * elements of `keys[0..i]` joined by `,\n`. Runs of dropped turns mostly grow at their end (the
 * oldest turns go first, and a live conversation grows), so the saved form of a longer run hashes
 * only what it adds.
 */
export interface SavedFormChain {
  readonly keys: string[];
  readonly states: Hash[];
}

/** Bytes a chain's link is taken to hold: a hash state and its key. */
const LINK_BYTES = 512;

/** sha256 of `savedFormOf(facts)`, hashing only what the longest prefix hashed before does not cover. */
export function savedFormSha256(facts: readonly MessageFacts[]): string {
  if (facts.length === 0) return createHash('sha256').update('[]').digest('hex');
  const first = facts[0]!.key;
  const chain = foldCaches.savedForms.get(first) ?? { keys: [], states: [] };
  let common = 0;
  while (common < facts.length && common < chain.keys.length && chain.keys[common] === facts[common]!.key) common++;
  if (common < facts.length) {
    // A chain that went another way past the common part keeps the common part only.
    chain.keys.length = common;
    chain.states.length = common;
    for (let index = common; index < facts.length; index++) {
      const state = index === 0 ? createHash('sha256').update('[\n') : chain.states[index - 1]!.copy().update(',\n');
      state.update(facts[index]!.element);
      chain.keys.push(facts[index]!.key);
      chain.states.push(state);
    }
    foldCaches.savedForms.set(first, chain, chain.keys.length * LINK_BYTES);
  }
  return chain.states[facts.length - 1]!.copy().update('\n]').digest('hex');
}

/**
 * Tokens of `savedFormOf(facts)`. With `identity.exactSegments`, the sum of `[\n`, each element
 * with the `,\n` after it and the last with `\n]`, each counted once per message: an o200k or
 * cl100k pre-tokenizer never joins text across the end of `},\n` (the run of punctuation
 * ` },\n` ends at the line break, and the next element starts with ` {`), so the sum is the count
 * of the whole. An element ends with a line break and ` }`, which are chunks of their own, so its
 * count with `,\n` is its count with `\n]` and a constant: one of the two is counted, the other
 * derived. Otherwise the whole text is counted.
 */
export function savedFormTokens(facts: readonly MessageFacts[], content: () => string, tokens: TokenCounting, identity: CountingIdentity): number {
  if (!identity.exactSegments || facts.length === 0) return tokens.countText(content());
  let total = cachedCount(`${identity.id} saved-form-open`, () => tokens.countText('[\n'));
  // Tokens an element gains followed by `,\n` rather than by `\n]`.
  const shift = cachedCount(`${identity.id} saved-form-shift`, () => tokens.countText(' },\n') - tokens.countText(' }\n') - tokens.countText(']'));
  for (let index = 0; index < facts.length; index++) {
    const fact = facts[index]!;
    let counts = fact.counts.get(identity.id);
    if (counts === undefined) {
      counts = {};
      fact.counts.set(identity.id, counts);
    }
    const closes = fact.element.endsWith('\n }');
    if (index === facts.length - 1) {
      total += counts.last ??= closes && counts.middle !== undefined ? counts.middle - shift : tokens.countText(`${fact.element}\n]`);
    } else {
      total += counts.middle ??= closes && counts.last !== undefined ? counts.last + shift : tokens.countText(`${fact.element},\n`);
    }
  }
  return total;
}

/** A piece holding the saved form of messages: hashed from their elements, written out only when read. */
export function savedFormPiece(messageId: string, kind: 'turn' | 'turns', facts: readonly MessageFacts[]): FoldedPiece {
  let content: string | undefined;
  return {
    messageId,
    kind,
    sha256: savedFormSha256(facts),
    saved: facts,
    get content(): string {
      return (content ??= savedFormOf(facts));
    },
  };
}
