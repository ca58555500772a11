import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';

/**
 * The scripted coding task of the prompt-cache measure: a system prompt, four tool definitions, a
 * first user message holding a marker word only it has, then one step per file: the agent says
 * what it does, calls `bash` with `cat` and gets ~2,400 tokens of source back. Deterministic: the
 * same step is the same bytes in every run, so strategies are compared on one conversation.
 */
export const AGENT_TOOLS: ChatCompletionTool[] = [
  tool('bash', 'Run a shell command in the repository and return its output (stdout and stderr, exit code).', { command: 'The command to run' }),
  tool('read_file', 'Read a file of the repository, optionally a range of lines.', { path: 'The file', start: 'First line', end: 'Last line' }),
  tool('edit_file', 'Replace an exact string in a file with another; fails when the old string is not unique.', {
    path: 'The file',
    old_string: 'The text to replace',
    new_string: 'The replacement',
  }),
  tool('write_file', 'Write a whole file, creating folders as needed.', { path: 'The file', content: 'Its new content' }),
];

function tool(name: string, description: string, properties: Record<string, string>): ChatCompletionTool {
  return {
    type: 'function',
    function: {
      name,
      description,
      parameters: {
        type: 'object',
        properties: Object.fromEntries(Object.entries(properties).map(([key, text]) => [key, { type: 'string', description: text }])),
        required: Object.keys(properties).slice(0, 1),
      },
    },
  };
}

export const AGENT_SYSTEM_PROMPT = [
  'You are a coding agent working in a checked-out repository. Use the tools to read and change files; run the tests before you say a change is done.',
  'Keep answers short. Never invent file contents: read them. When the task asks you to quote something from it, quote it exactly.',
].join('\n');

/** The marker the final answer must quote: only the first user message has it. */
export function taskMarker(seed: number): string {
  return `MARKER-${(0x5f3759df ^ (seed * 2654435761)) >>> 0}`.slice(0, 17);
}

export function taskMessage(seed: number, steps: number): string {
  return `Read the files f01..f${pad(steps)} of this repository one by one with cat, note what each defines, then answer with a one-line summary that quotes the release codename ${taskMarker(seed)} exactly.`;
}

function pad(index: number): string {
  return String(index).padStart(2, '0');
}

const WORDS = ['parse', 'render', 'index', 'token', 'window', 'budget', 'cache', 'store', 'digest', 'message', 'fold', 'trim', 'limit', 'reply', 'model'];

/** File `index` of the task: about `lines` lines of Python-like source, every name its own. */
export function taskFile(seed: number, index: number, lines = 122): string {
  const out = [`# f${pad(index)}.py (seed ${seed})`, 'from __future__ import annotations', ''];
  let state = (seed * 7919 + index * 104729) >>> 0;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0);
  for (let line = 0; out.length < lines; line += 1) {
    const name = `${WORDS[next() % WORDS.length]}_${WORDS[next() % WORDS.length]}_${index}_${line}`;
    out.push(
      `def ${name}(value: int, scale: float = ${(next() % 97) / 10}) -> dict[str, int]:`,
      `    """Return the ${WORDS[next() % WORDS.length]} of value for step ${line} (see f${pad((index % 9) + 1)}.py)."""`,
      `    return {"${name}": int(value * scale) + ${next() % 1000}, "limit": ${next() % 4096}, "offset": value - ${next() % 50}}`,
      '',
    );
  }
  return out.join('\n');
}

/** The messages a step adds: the agent's call (with a line of text) and the tool's answer. */
export function stepMessages(seed: number, step: number): ChatCompletionMessageParam[] {
  const callId = `call_${seed}_${step}`;
  return [
    {
      role: 'assistant',
      content: `Reading f${pad(step)}.py next.`,
      tool_calls: [{ id: callId, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: `cat f${pad(step)}.py` }) } }],
    },
    { role: 'tool', tool_call_id: callId, content: taskFile(seed, step) },
  ];
}

export function initialMessages(seed: number, steps: number): ChatCompletionMessageParam[] {
  return [
    { role: 'system', content: AGENT_SYSTEM_PROMPT },
    { role: 'user', content: taskMessage(seed, steps) },
  ];
}
