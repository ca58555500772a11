/** A sentence of the conversation with its position and how much it is worth keeping. */
export interface ScoredSentence {
  readonly text: string;
  readonly index: number;
  readonly score: number;
}

const FILE_PATH =
  /(?:\.{0,2}\/)?(?:[\w.-]+\/)+[\w.-]+\.[A-Za-z]\w{0,5}\b|\b[\w-]+\.(?:ts|tsx|js|jsx|mjs|cjs|py|md|json|jsonl|go|rs|java|c|h|cpp|yaml|yml|toml|txt|sh|css|html|sql)\b/g;
const IDENTIFIER = /`[^`\n]+`|\b[a-z]+(?:[A-Z][a-z0-9]*)+\b|\b[a-z0-9]+(?:_[a-z0-9]+)+\b|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b/g;
const DECISION = /\b(decid\w*|decision|chose|choose|will use|agreed|locked|must|instead of|going with|plan)\b/gi;
const ERROR = /\b(error|errors|failed|fails|failure|exception|traceback|cannot|can't|bug|crash\w*|broken|fix\w*)\b/gi;

/** File paths mentioned in `text`, in order of first appearance, without duplicates. */
export function findFilePaths(text: string): string[] {
  return [...new Set(text.match(FILE_PATH) ?? [])];
}

/** Identifiers (camelCase, snake_case, PascalCase, `code`) by how often they appear, most first. */
export function findIdentifiers(text: string): string[] {
  const counts = new Map<string, number>();
  for (const match of text.match(IDENTIFIER) ?? []) counts.set(match, (counts.get(match) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([name]) => name);
}

export function splitSentences(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])\s+(?=[A-Z`"'(\[])/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
}

/** Scores sentences for what a summary must keep: file paths, identifiers, decisions, errors. */
export function scoreSentences(text: string): ScoredSentence[] {
  const seen = new Set<string>();
  const scored: ScoredSentence[] = [];
  for (const sentence of splitSentences(text)) {
    if (seen.has(sentence)) continue;
    seen.add(sentence);
    const count = (pattern: RegExp) => sentence.match(pattern)?.length ?? 0;
    let score = 3 * count(FILE_PATH) + 2 * count(IDENTIFIER) + 3 * count(DECISION) + 3 * count(ERROR);
    if (/\d/.test(sentence)) score += 1;
    if (sentence.split(/\s+/).length < 4) score -= 1;
    scored.push({ text: sentence, index: scored.length, score });
  }
  return scored;
}
