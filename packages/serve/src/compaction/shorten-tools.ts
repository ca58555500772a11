/**
 * Share of what the window leaves after the reply reserve that tool definitions may take before
 * their descriptions are shortened: an agent's dozens of tools (Claude Code's take ~15,000 tokens)
 * would otherwise leave a local window no room for the conversation.
 */
export const TOOLS_SHARE = 0.35;

/** How far each level shortens a `description`: the tool's own and those inside its parameters' schema. */
const LEVELS: readonly { readonly tool: number; readonly nested: number | undefined }[] = [
  { tool: 600, nested: 200 },
  { tool: 240, nested: 80 },
  { tool: 100, nested: undefined },
];

export interface ShortenedTools {
  readonly tools: unknown;
  readonly tokens: number;
  /** Tokens of the tools as they came. */
  readonly askedTokens: number;
  /** 0: as they came; 1-3: how far descriptions were shortened. */
  readonly level: number;
}

/**
 * The tool definitions of a request, their `description` texts shortened level by level (the
 * first paragraph, then the first sentence, within a length; at the last level parameters'
 * descriptions dropped) until they take at most `limit` tokens or nothing more can go. Names,
 * schemas and every other field stay as they came, and the same tools always give the same bytes
 * (a local server's prompt cache keeps them). Any API's shape: every string under a
 * `description` key is shortened, whatever nests it.
 */
export function shortenTools(tools: unknown, limit: number, count: (tools: unknown) => number): ShortenedTools {
  const tokens = count(tools);
  if (tokens <= limit || !Array.isArray(tools)) return { tools, tokens, askedTokens: tokens, level: 0 };
  let best: ShortenedTools = { tools, tokens, askedTokens: tokens, level: 0 };
  for (const [index, level] of LEVELS.entries()) {
    const shortened = tools.map((tool) => shortenNode(tool, level.tool, level.nested, 0));
    best = { tools: shortened, tokens: count(shortened), askedTokens: tokens, level: index + 1 };
    if (best.tokens <= limit) break;
  }
  return best;
}

function shortenNode(node: unknown, toolLength: number, nestedLength: number | undefined, depth: number): unknown {
  if (Array.isArray(node)) return node.map((entry) => shortenNode(entry, toolLength, nestedLength, depth + 1));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === 'description' && typeof value === 'string') {
      // A tool's own description sits at depth 0 (Anthropic, Responses) or 1 (`function` of OpenAI and Ollama).
      const length = depth <= 1 ? toolLength : nestedLength;
      if (length === undefined) continue;
      out[key] = shortenText(value, length);
    } else out[key] = shortenNode(value, toolLength, nestedLength, key === 'function' ? depth : depth + 1);
  }
  return out;
}

/** The first paragraph, cut at the last sentence end within `length` characters (else at a word, with an ellipsis). */
export function shortenText(text: string, length: number): string {
  const paragraph = text
    .trim()
    .split(/\n\s*\n/)[0]!
    .replace(/\s+/g, ' ');
  if (paragraph.length <= length) return paragraph;
  const within = paragraph.slice(0, length);
  const sentence = within.match(/^.*[.!?](?=\s|$)/)?.[0];
  if (sentence && sentence.length >= length / 3) return sentence;
  const word = within.replace(/\s+\S*$/, '');
  return `${word.length > 0 ? word : within}…`;
}
