import type { TokenCounting } from '@ollm/core';
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
    units.push({ text: match[0], line: line++, code: true, score: Infinity, mustKeep: true, tokens: tokens.countText(match[0]) });
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
