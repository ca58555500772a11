/** An OpenAI chat message, as `ollm` reads a `.json` chat file. */
export interface ChatFileMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly content: string | null;
  readonly tool_calls?: readonly { readonly id: string; readonly type: 'function'; readonly function: { readonly name: string; readonly arguments: string } }[];
  readonly tool_call_id?: string;
}

/** A transcript made to be hard on a tokenizer or a parser (issue 14). */
export interface HostileInput {
  /** `repeated-100k`, `nested-5000`. */
  readonly name: string;
  readonly description: string;
  readonly kind: 'repeated' | 'nested';
  /** Characters repeated, or nesting depth. */
  readonly size: number;
  readonly messages: readonly ChatFileMessage[];
}

function shortName(size: number): string {
  if (size >= 1_000_000 && size % 1_000_000 === 0) return `${size / 1_000_000}m`;
  if (size >= 1_000 && size % 1_000 === 0) return `${size / 1_000}k`;
  return String(size);
}

function conversation(argumentsText: string, output: string): ChatFileMessage[] {
  return [
    { role: 'system', content: 'You are a careful software engineer.' },
    { role: 'user', content: 'Look at the build output and tell me what went wrong.' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: argumentsText } }] },
    { role: 'tool', tool_call_id: 'call_1', content: output },
    { role: 'assistant', content: 'The output is not what a build prints.' },
  ];
}

/** A tool result of one character repeated `characters` times (BPE's worst case: a single pre-token). */
export function repeatedCharacterInput(characters: number): HostileInput {
  return {
    name: `repeated-${shortName(characters)}`,
    description: `a tool result of ${characters.toLocaleString('en-US')} repeated characters ("aaaa…")`,
    kind: 'repeated',
    size: characters,
    messages: conversation(JSON.stringify({ command: 'cat build.log' }), 'a'.repeat(characters)),
  };
}

/** `{"a":{"a":…1…}}` nested `depth` deep. */
export function nestedJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** Tool-call arguments and the tool result both JSON nested `depth` deep. */
export function nestedJsonInput(depth: number): HostileInput {
  const nested = nestedJson(depth);
  return {
    name: `nested-${shortName(depth)}`,
    description: `tool-call arguments and a tool result of JSON nested ${depth.toLocaleString('en-US')} deep`,
    kind: 'nested',
    size: depth,
    messages: conversation(nested, nested),
  };
}
