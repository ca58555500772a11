/**
 * Rule-based importance of one sentence of assistant prose. What a later turn needs from an old
 * message is what was decided, which files and names were involved and what failed; narration
 * ("Let me check...", "Great!") can go.
 */

/** Strong signals: a sentence with any of these is always kept, however it is phrased. */
const MUST_KEEP_REASONS = new Set(['decision', 'error', 'file-path']);

const DECISION =
  /\b(decided|decide to|will use|going to use|chose|the (?:issue|problem|bug|cause|root cause|fix|solution) (?:is|was)|root cause|fix(?:ed|es)?|instead of|the solution|should be|must be|needs? to be|changed?|modif(?:y|ied)|replaced?|add(?:ed)? (?:a|an|the)\b)/i;
const WEAK_DECISION = /\b(because|since|so that|therefore|approach|plan|conclusion|works?|confirmed?|verified|passe[sd])\b/i;
const ERROR = /\b(error|errors|exception|traceback|fail(?:s|ed|ing|ure)?|broken|crash(?:es|ed)?|warning|\w+(?:Error|Exception|Warning))\b/i;
const FILE_PATH =
  /(?:^|[\s`'"(=:])(?:~|\.{1,2})?\/?(?:[\w.@-]+\/)+[\w.@-]+|\b[\w-]+\.(?:py|ts|tsx|js|jsx|mjs|cjs|json|ya?ml|toml|md|rst|txt|cfg|ini|html|css|sql|sh|go|rs|java|kt|c|h|cc|cpp|hpp|rb|php|cs|swift)\b/;
const CAMEL_CASE = /\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b|\b[a-z]+[A-Z]\w*\b/;
const SNAKE_CASE = /\b[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+\b|\b__\w+__\b/;
const DOTTED_NAME = /\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?/;
const INLINE_CODE = /`[^`\n]+`/;
const FILLER =
  /^(?:[-*]\s*)?(?:let me|let's|now,? (?:let me|i'll|i will)|i'll|i will now|i need to|okay|ok|great|perfect|excellent|good|nice|alright|sure|now|first|next|then|finally)\b/i;

export interface SentenceScore {
  readonly score: number;
  /** True when the sentence records a decision, an error or a file path. */
  readonly mustKeep: boolean;
  /** The signals found, for tests and debugging. */
  readonly reasons: readonly string[];
}

export function scoreSentence(sentence: string): SentenceScore {
  const reasons: string[] = [];
  let score = 0;
  if (DECISION.test(sentence)) ((score += 3), reasons.push('decision'));
  else if (WEAK_DECISION.test(sentence)) ((score += 1), reasons.push('weak-decision'));
  if (ERROR.test(sentence)) ((score += 3), reasons.push('error'));
  if (FILE_PATH.test(sentence)) ((score += 3), reasons.push('file-path'));
  const identifiers = [CAMEL_CASE, SNAKE_CASE, DOTTED_NAME, INLINE_CODE].filter((pattern) => pattern.test(sentence)).length;
  if (identifiers > 0) ((score += 1 + identifiers), reasons.push('identifier'));
  if (FILLER.test(sentence.trim())) ((score -= 2), reasons.push('filler'));
  return { score, mustKeep: reasons.some((reason) => MUST_KEEP_REASONS.has(reason)), reasons };
}
