import { nestsDeeperThan, type TokenCounting } from '@ollm/core';

/**
 * A compact skeleton of a JSON tool output for a truncation placeholder: the identifiers and
 * amounts a model needs to continue (tau-bench's reservation ids, payment ids, prices), the
 * length of every array shown and the first item of long arrays, within a token budget. The
 * first and last lines of a one-line JSON document are a random cut of it; a reservation id at
 * the end of `reservations` is exactly what a head/tail preview loses.
 */

/** Keys whose scalar values are identifiers: `id`, `user_id`, `flight_number`, `reservation…`, `user…`. */
const IDENTIFIER_KEY = /(?:^|_)id$|^id_|_number$|^reservation|^user|^payment_id$/i;
/** Keys whose values (or, for an object such as `prices`, its values) are amounts or the state of a record. */
const AMOUNT_KEY = /^(?:amount|prices?|total\w*|balance|cost|fare|refund\w*)$/i;
const DETAIL_KEY = /^(?:status|date\w*|\w+_date|origin|destination)$/i;
/**
 * Values that are identifiers whatever their key: `SDZQKO`, `HAT069`, `mia_li_3668`,
 * `credit_card_4421486`, UUIDs. Codes need a capital letter: zip codes, card digits and dates are not identifiers.
 */
const IDENTIFIER_VALUE = [
  /^(?=[0-9]*[A-Z])[A-Z0-9]{6}$/,
  /^(?=[0-9-]*[A-Z])(?=[A-Z-]*\d)[A-Z0-9-]{4,16}$/,
  /^[a-z]+(?:_[a-z]+)*_\d{3,}$/,
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
];

/**
 * Priorities, lowest first: identifiers and amounts, then states, dates, places and array lengths
 * (`DETAIL_PRIORITY`). Facts in items after the first of an array (or of an object keyed by
 * identifiers, such as tau-bench's `payment_methods`) sink by `ITEM_DEMOTION` per level, so the
 * first item is shown in full form — but the identifiers of every item come before the details
 * of any: a list of reservation ids is what a model continues from, the first flight's date is not.
 */
const IDENTIFIER_PRIORITY = 0;
const ITEM_DEMOTION = 1;
const DETAIL_PRIORITY = 100;
/** Details are added only while the skeleton is within this share of its budget: they help a reader, the ids are what it needs. */
const DETAIL_SHARE = 0.6;
/** Facts that did not fit, in a row, before the search for smaller ones that still fit stops. */
const MAXIMUM_MISSES = 16;
/** Items of one array (entries of one object) looked at: past this a long array is only counted. Each render walks them. */
const MAXIMUM_ITEMS = 100;
/** Outputs longer than this keep the head/tail preview: parsing and ranking a huge document is not worth a placeholder's time. */
const MAXIMUM_DOCUMENT_CHARACTERS = 1_000_000;
/** Documents nested deeper than this are folded as text (real tool outputs nest a few levels). */
const MAXIMUM_SKELETON_DEPTH = 64;
/** Scalars longer than this are never shown (an identifier is short). */
const MAXIMUM_SCALAR_CHARACTERS = 40;
/** A first guess of characters per token for JSON full of identifiers; corrected by measuring. */
const CHARACTERS_PER_TOKEN = 3;
/** Rounds of shrinking the character budget when the measured skeleton is over the token budget. */
const MEASURE_ROUNDS = 8;
const OMITTED = '…';

interface ScalarNode {
  readonly kind: 'scalar';
  readonly text: string;
}
interface ObjectNode {
  readonly kind: 'object';
  readonly entries: readonly { readonly key: string; readonly node: SkeletonNode }[];
  /** More entries than `MAXIMUM_ITEMS` were there; the rest are only marked. */
  readonly cut: boolean;
}
interface ArrayNode {
  readonly kind: 'array';
  readonly length: number;
  readonly items: readonly SkeletonNode[];
}
type SkeletonNode = ScalarNode | ObjectNode | ArrayNode;

/** Something the skeleton may show; showing it shows the path to it. */
interface Fact {
  readonly priority: number;
  /** Position in the nearest array or identifier-keyed object: the second items of two lists rank before the third of either. */
  readonly rank: number;
  /** The nodes from the root down to the one shown (a scalar, an array's length, or an entry's key). */
  readonly path: readonly SkeletonNode[];
  /** For a key fact: the value of the entry whose key is shown, even when nothing inside it is. */
  readonly keyedEntry?: SkeletonNode;
}

/** Share of the output's tokens a skeleton may take. */
export const SKELETON_SHARE = 0.25;
/** A skeleton never takes more than this, however large the output (a 20,000-token flight search). */
export const MAXIMUM_SKELETON_TOKENS = 400;

/**
 * Tokens a skeleton may take in a placeholder: `SKELETON_SHARE` of the output, at most
 * `MAXIMUM_SKELETON_TOKENS`; none when the placeholder has no preview (`previewLines` 0). It is
 * not capped by the one or three lines a head/tail preview shows: a one-line JSON document's
 * first 160 characters are a random cut, and a reservation list that does not fit is lost.
 */
export function skeletonTokenBudget(outputTokens: number, previewLines: number): number {
  if (previewLines <= 0) return 0;
  return Math.min(Math.ceil(outputTokens * SKELETON_SHARE), MAXIMUM_SKELETON_TOKENS);
}

export interface JsonSkeletonOptions {
  /** Tokens the skeleton may take at most. */
  readonly tokenBudget: number;
  readonly tokens: TokenCounting;
}

/** `output` parsed when it is a JSON object or array (surrounding whitespace allowed) of a reasonable size, else undefined. */
export function parseJsonDocument(output: string): unknown {
  if (output.length > MAXIMUM_DOCUMENT_CHARACTERS) return undefined;
  const text = output.trim();
  const first = text[0];
  if (first !== '{' && first !== '[') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
  // The skeleton is built recursively: a document nested deeper than any real tool output (a hostile
  // one, 5,000 levels) is folded as text instead of overflowing the stack.
  return nestsDeeperThan(value, MAXIMUM_SKELETON_DEPTH) ? undefined : value;
}

function isIdentifierValue(text: string): boolean {
  return IDENTIFIER_VALUE.some((pattern) => pattern.test(text));
}

function toNode(value: unknown): SkeletonNode {
  if (Array.isArray(value)) return { kind: 'array', length: value.length, items: value.slice(0, MAXIMUM_ITEMS).map(toNode) };
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    return {
      kind: 'object',
      entries: entries.slice(0, MAXIMUM_ITEMS).map(([key, entry]) => ({ key, node: toNode(entry) })),
      cut: entries.length > MAXIMUM_ITEMS,
    };
  }
  return { kind: 'scalar', text: value === null ? 'null' : String(value) };
}

interface Place {
  /** Entry keys from the root down to the node, the last one its own. */
  readonly keys: readonly string[];
  /** Inside an amount-like key such as `prices`: every number below is an amount. */
  readonly amounts: boolean;
  readonly demotion: number;
  readonly rank: number;
}

/**
 * Every fact of the tree, with its priority. A value repeating a key above it
 * (`credit_card_1: {id: credit_card_1}`) is shown already.
 */
function collectFacts(node: SkeletonNode, path: readonly SkeletonNode[], place: Place, facts: Fact[]): void {
  const here = [...path, node];
  const key = place.keys[place.keys.length - 1];
  const { demotion, rank } = place;
  if (node.kind === 'scalar') {
    if (node.text.length > MAXIMUM_SCALAR_CHARACTERS || place.keys.includes(node.text)) return;
    const identifier = (key !== undefined && IDENTIFIER_KEY.test(key)) || isIdentifierValue(node.text);
    const amount = place.amounts || (key !== undefined && AMOUNT_KEY.test(key));
    if (identifier || amount) facts.push({ priority: IDENTIFIER_PRIORITY + demotion, rank, path: here });
    else if (key !== undefined && DETAIL_KEY.test(key)) facts.push({ priority: DETAIL_PRIORITY + demotion, rank, path: here });
    return;
  }
  if (node.kind === 'array') {
    facts.push({ priority: DETAIL_PRIORITY + demotion, rank, path: here });
    node.items.forEach((item, index) => collectFacts(item, here, { ...place, demotion: demotion + (index === 0 ? 0 : ITEM_DEMOTION), rank: index }, facts));
    return;
  }
  let identifierKeys = 0;
  for (const entry of node.entries) {
    const entryPlace = { keys: [...place.keys, entry.key], amounts: place.amounts || AMOUNT_KEY.test(entry.key), demotion, rank };
    if (isIdentifierValue(entry.key)) {
      // A key that is itself an identifier (`credit_card_4421486: {…}`) is worth showing on its own; such entries are a list.
      const itemPlace = { ...entryPlace, demotion: demotion + (identifierKeys === 0 ? 0 : ITEM_DEMOTION), rank: identifierKeys++ };
      facts.push({ priority: IDENTIFIER_PRIORITY + itemPlace.demotion, rank: itemPlace.rank, path: here, keyedEntry: entry.node });
      collectFacts(entry.node, here, itemPlace, facts);
    } else collectFacts(entry.node, here, entryPlace, facts);
  }
}

/** What is shown: nodes on a selected path, and entries shown for their key alone. */
interface Selection {
  readonly nodes: Set<SkeletonNode>;
  readonly keyedEntries: Set<SkeletonNode>;
}

/** Adds what `fact` shows to `selection`; returns what was new, so it can be taken back. */
function select(selection: Selection, fact: Fact): { nodes: SkeletonNode[]; keyedEntry: SkeletonNode | undefined } {
  const nodes = fact.path.filter((node) => !selection.nodes.has(node));
  for (const node of nodes) selection.nodes.add(node);
  const keyedEntry = fact.keyedEntry !== undefined && !selection.keyedEntries.has(fact.keyedEntry) ? fact.keyedEntry : undefined;
  if (keyedEntry !== undefined) selection.keyedEntries.add(keyedEntry);
  return { nodes, keyedEntry };
}

const BARE = /^[\w.@:+/-]+$/;

function renderText(text: string): string {
  return BARE.test(text) ? text : JSON.stringify(text);
}

function render(node: SkeletonNode, selection: Selection): string {
  if (node.kind === 'scalar') return renderText(node.text);
  if (node.kind === 'array') {
    const shown = node.items.filter((item) => selection.nodes.has(item)).map((item) => render(item, selection));
    if (shown.length === node.length) return `[${shown.join(', ')}]`;
    const count = `${node.length} item${node.length === 1 ? '' : 's'}`;
    return shown.length === 0 ? `[${count}]` : `[${count}: ${shown.join(', ')}, ${OMITTED}]`;
  }
  const parts: string[] = [];
  for (const { key, node: child } of node.entries) {
    if (selection.nodes.has(child)) parts.push(`${renderText(key)}: ${render(child, selection)}`);
    // Only the key: `payment_methods: {credit_card_7447, gift_card_22: {amount: 22}}` reads as a set of ids.
    else if (selection.keyedEntries.has(child)) parts.push(renderText(key));
  }
  // Left-out keys are not marked: most objects lose some, and the header says it is a skeleton.
  if (node.cut) parts.push(OMITTED);
  return `{${parts.join(', ')}}`;
}

/** The facts, best first, each added when the rendering stays within `characterBudget`. */
function renderWithin(root: SkeletonNode, facts: readonly Fact[], characterBudget: number): string | undefined {
  const selection: Selection = { nodes: new Set([root]), keyedEntries: new Set() };
  let text: string | undefined;
  let misses = 0;
  for (const fact of facts) {
    const added = select(selection, fact);
    // Already shown (an array's length once an item is): no render, and no reset of the misses.
    if (added.nodes.length === 0 && added.keyedEntry === undefined) continue;
    const candidate = render(root, selection);
    const limit = fact.priority >= DETAIL_PRIORITY ? characterBudget * DETAIL_SHARE : characterBudget;
    if (candidate.length <= limit) {
      text = candidate;
      misses = 0;
      continue;
    }
    for (const node of added.nodes) selection.nodes.delete(node);
    if (added.keyedEntry !== undefined) selection.keyedEntries.delete(added.keyedEntry);
    // Everything after ranks lower; trying it all would cost a render per fact of a huge document.
    if (++misses >= MAXIMUM_MISSES) break;
  }
  return text;
}

/**
 * The skeleton of a JSON tool output, or undefined when `output` is not a JSON object or array,
 * holds nothing worth keeping, or no skeleton fits `tokenBudget`.
 */
export function buildJsonSkeleton(output: string, options: JsonSkeletonOptions): string | undefined {
  if (options.tokenBudget <= 0) return undefined;
  const value = parseJsonDocument(output);
  if (value === undefined) return undefined;
  const root = toNode(value);
  const facts: Fact[] = [];
  collectFacts(root, [], { keys: [], amounts: false, demotion: 0, rank: 0 }, facts);
  if (facts.length === 0) return undefined;
  // Document order within one priority and rank.
  const ranked = facts
    .map((fact, order) => ({ fact, order }))
    .sort((a, b) => a.fact.priority - b.fact.priority || a.fact.rank - b.fact.rank || a.order - b.order)
    .map(({ fact }) => fact);
  let characterBudget = options.tokenBudget * CHARACTERS_PER_TOKEN;
  for (let round = 0; round < MEASURE_ROUNDS; round++) {
    const text = renderWithin(root, ranked, characterBudget);
    if (text === undefined) return undefined;
    const tokens = options.tokens.countText(text);
    if (tokens <= options.tokenBudget) return text;
    // Shorter than this text, whatever the estimate says, so each round makes progress.
    characterBudget = Math.min(text.length - 1, Math.floor((characterBudget * options.tokenBudget) / tokens));
  }
  return undefined;
}
