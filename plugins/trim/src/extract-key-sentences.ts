import type { TokenCounting } from '@ollm/core';
import { countingOwner } from './counting-owner.js';
import { scoreSentence } from './sentence-scoring.js';

/** Fenced code blocks (``` or ~~~), kept verbatim; an unterminated fence runs to the end. */
const FENCED_BLOCK = /^(```|~~~)[^\n]*\n[\s\S]*?(?:^\1[^\n]*$|(?![\s\S]))/gm;
/**
 * Sentence ends: punctuation, space, then something that starts a sentence. Paths like `a.py`
 * have no space, and a list marker (`1.`, `a)`) stays with its item.
 */
const SENTENCE_END = /(?<=[.!?])(?<!^\s*(?:\d+|[a-z])[.)])\s+(?=[A-Z`"'(*[])/;

interface Unit {
  readonly text: string;
  readonly line: number;
  readonly code: boolean;
  readonly score: number;
  readonly mustKeep: boolean;
  /** Tokens of a sentence; 0 for code, which the budget does not count. */
  readonly tokens: number;
}

export interface ExtractOptions {
  /** Share of the prose tokens to aim for; sentences that must be kept may exceed it. */
  readonly keepRatio: number;
  readonly tokens: TokenCounting;
}

function splitUnits(text: string, tokens: TokenCounting): Unit[] {
  const units: Unit[] = [];
  let line = 0;
  const addProse = (prose: string): void => {
    for (const rawLine of prose.split('\n')) {
      const trimmed = rawLine.trim();
      if (trimmed.length > 0) {
        for (const sentence of trimmed.split(SENTENCE_END)) {
          const { score, mustKeep } = scoreSentence(sentence);
          units.push({ text: sentence, line, code: false, score, mustKeep, tokens: tokens.countText(sentence) });
        }
      }
      line++;
    }
  };
  let last = 0;
  for (const match of text.matchAll(FENCED_BLOCK)) {
    addProse(text.slice(last, match.index));
    // Code is always kept and is outside the prose budget: its tokens are never read, so never counted.
    units.push({ text: match[0], line: line++, code: true, score: Infinity, mustKeep: true, tokens: 0 });
    last = match.index + match[0].length;
  }
  addProse(text.slice(last));
  return units;
}

/**
 * Extractive compression of one text: keeps fenced code verbatim and every sentence with a
 * decision, an error or a file path, then the best-scoring other sentences (identifiers, inline
 * code) while within `keepRatio` of the prose, and drops filler. Sentences stay in their order,
 * and sentences of one source line stay on one line.
 */
export function extractKeySentences(text: string, options: ExtractOptions): string {
  // A pure function of the text, the ratio and the tokenizer: a live session extracts the same
  // old messages again on every compaction, so each is scored once.
  const key = `${options.keepRatio}\0${text}`;
  let known = extractions.get(countingOwner(options.tokens));
  const cached = known?.entries.get(key);
  if (cached !== undefined) return cached;
  const extracted = extract(text, options);
  if (!known) extractions.set(countingOwner(options.tokens), (known = { entries: new Map(), characters: 0 }));
  known.entries.set(key, extracted);
  known.characters += key.length + extracted.length;
  // Bounded in entries and in characters, the oldest out first.
  while (known.entries.size > 1 && (known.entries.size > MAX_CACHED_EXTRACTIONS || known.characters > MAX_CACHED_CHARACTERS)) {
    const [oldestKey, oldest] = known.entries.entries().next().value!;
    known.entries.delete(oldestKey);
    known.characters -= oldestKey.length + oldest.length;
  }
  return extracted;
}

/** Extractions made, per counting owner (`countingOwner`), by ratio and text. */
const extractions = new WeakMap<object, { readonly entries: Map<string, string>; characters: number }>();
const MAX_CACHED_EXTRACTIONS = 2048;
const MAX_CACHED_CHARACTERS = 8 * 1024 * 1024;

function extract(text: string, options: ExtractOptions): string {
  const units = splitUnits(text, options.tokens);
  const proseTokens = units.filter((unit) => !unit.code).reduce((sum, unit) => sum + unit.tokens, 0);
  const kept = new Set<Unit>(units.filter((unit) => unit.mustKeep));
  let budget = options.keepRatio * proseTokens - [...kept].filter((unit) => !unit.code).reduce((sum, unit) => sum + unit.tokens, 0);
  const optional = units.filter((unit) => !unit.mustKeep && unit.score > 0).sort((a, b) => b.score - a.score);
  for (const unit of optional) {
    if (unit.tokens > budget) continue;
    kept.add(unit);
    budget -= unit.tokens;
  }
  const lines: string[] = [];
  let currentLine = -1;
  for (const unit of units) {
    if (!kept.has(unit)) continue;
    if (unit.line === currentLine) lines[lines.length - 1] += ` ${unit.text}`;
    else lines.push(unit.text);
    currentLine = unit.line;
  }
  return lines.join('\n');
}
