import { nestsDeeperThan } from '@ollm/core';

/** Documents nested deeper than this are read as text (real tool outputs nest a few levels). */
const MAXIMUM_FACTS_DEPTH = 64;

/** Keys whose values a reader of a JSON tool output comes back to: ids, numbers, amounts, states, dates. */
const FACT_KEY = /(?:^id$|_id$|_ids$|_number$|^reservation|^user|amount|price|total|balance|^status$|date$|^origin$|^destination$|^name$)/i;

/** A string value that reads as an id (`SDZQKO`, `HAT069`, `credit_card_4421486`). */
const ID_VALUE = /^(?:[A-Z0-9]{5,10}|[a-z]+(?:_[a-z0-9]+)+_\d+)$/;

function parseJson(output: string): unknown {
  const trimmed = output.trim();
  if (!(trimmed.startsWith('{') || trimmed.startsWith('['))) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  // Facts are collected recursively: a document nested deeper than any real tool output (a hostile
  // one, 5,000 levels) is digested as text instead of overflowing the stack.
  return nestsDeeperThan(value, MAXIMUM_FACTS_DEPTH) ? undefined : value;
}

function collect(value: unknown, key: string | undefined, facts: string[], max: number): void {
  if (facts.length >= max) return;
  if (Array.isArray(value)) {
    for (const item of value) collect(item, key, facts, max);
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [entryKey, entry] of Object.entries(value)) {
      // Keys that are ids themselves (`payment_methods: { credit_card_4421486: … }`).
      if (ID_VALUE.test(entryKey)) add(facts, entryKey, max);
      collect(entry, entryKey, facts, max);
    }
    return;
  }
  if (typeof value !== 'string' && typeof value !== 'number') return;
  const text = String(value);
  if (key !== undefined && FACT_KEY.test(key)) add(facts, `${key} ${text}`, max);
  else if (typeof value === 'string' && ID_VALUE.test(text)) add(facts, text, max);
}

function add(facts: string[], fact: string, max: number): void {
  if (facts.length < max && !facts.includes(fact)) facts.push(fact);
}

/**
 * For an output that is a JSON document, its ids, amounts, states and dates as `key value`
 * (at most `max`), in document order; undefined for any other output.
 */
export function jsonFacts(output: string, max: number): string[] | undefined {
  const document = parseJson(output);
  if (document === undefined || document === null || typeof document !== 'object') return undefined;
  const facts: string[] = [];
  collect(document, undefined, facts, max);
  return facts;
}
