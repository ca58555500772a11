// A 40-turn tool-using conversation through `ollm serve`, with the `openai` npm package.
//
//   ollm serve                                     # in another terminal (Ollama at 127.0.0.1:11434)
//   OLLM_MODEL=llama3.1:8b node examples/serve/openai-client.mjs
//
// OLLM_SERVE_URL is the proxy (default http://127.0.0.1:11500; the client adds /v1), OLLM_MODEL
// the model (default llama3.2:3b). The client is the plain `openai` package: only its baseURL
// points at the proxy. Every turn prints the proxy's `x-ollm-context` response header: what
// it did to that request (fits, compacted, reused) and the numbers behind it.
import OpenAI from 'openai';

const serveUrl = (process.env.OLLM_SERVE_URL ?? 'http://127.0.0.1:11500').replace(/\/+$/, '');
const model = process.env.OLLM_MODEL ?? 'llama3.2:3b';
const TURNS = 40;
// Sent as max_tokens: the proxy keeps this much of the window for the reply.
const REPLY_LIMIT = 256;
// When the model asks for tools itself, how many more times one turn may ask it.
const TOOL_ROUNDS = 3;

// A local server ignores the key; a real one gets it forwarded (ollm serve never logs it).
const client = new OpenAI({ baseURL: `${serveUrl}/v1`, apiKey: process.env.OPENAI_API_KEY ?? 'local', maxRetries: 0 });

const tools = [
  {
    type: 'function',
    function: {
      name: 'read_file',
      description: 'Read a source file of the project.',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  },
];

/** The tool: a made-up TypeScript file (nothing is read from disk), different at every turn. */
function readFile(path, turn) {
  const lines = [`// ${path} (read at turn ${turn})`];
  for (let line = 0; line < 12; line += 1) {
    lines.push(`export function handler${turn}_${line}(input: number): number { return input * ${line + turn} + ${line}; }`);
  }
  return lines.join('\n');
}

/** The `path` a tool call asks for, or the turn's file when its arguments are not JSON. */
function pathOf(argumentsText, fallback) {
  try {
    const path = JSON.parse(argumentsText)?.path;
    return typeof path === 'string' ? path : fallback;
  } catch {
    return fallback;
  }
}

const messages = [{ role: 'system', content: 'You are a careful coding agent. Read files before you answer questions about them.' }];
const actions = {};

/** One request: prints the proxy's header and returns the model's message. */
async function ask(label) {
  const { data, response } = await client.chat.completions.create({ model, messages, tools, max_tokens: REPLY_LIMIT }).withResponse();
  const context = response.headers.get('x-ollm-context');
  const action = context ? context.split(';')[0] : 'no header';
  actions[action] = (actions[action] ?? 0) + 1;
  console.log(`${label}: ${context ?? '(no x-ollm-context header: is OLLM_SERVE_URL the proxy?)'}`);
  return data.choices[0]?.message;
}

async function converse() {
  for (let turn = 1; turn <= TURNS; turn += 1) {
    const path = `src/module-${turn % 17}.ts`;
    messages.push({ role: 'user', content: `Turn ${turn}: what does handler${turn}_3 in ${path} return for 2?` });
    // Every turn reads a file, as a coding agent's turns do: the call and its result are added
    // here, so the conversation is the same whatever the model does. When the model asks for a
    // tool itself, the call is run and the model is asked again.
    const id = `call_${turn}`;
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path }) } }],
    });
    messages.push({ role: 'tool', tool_call_id: id, content: readFile(path, turn) });
    for (let round = 0; round <= TOOL_ROUNDS; round += 1) {
      const message = await ask(`turn ${String(turn).padStart(2)}${round > 0 ? `.${round}` : ''}`);
      const calls = (message?.tool_calls ?? []).filter((call) => call.type === 'function');
      messages.push({ role: 'assistant', content: message?.content ?? '', ...(calls.length > 0 ? { tool_calls: calls } : {}) });
      if (calls.length === 0) break;
      // Every call gets its result, even on the last round: a call left unanswered breaks the conversation.
      for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: readFile(pathOf(call.function.arguments, path), turn) });
    }
  }
  const counts = Object.entries(actions).map(([action, count]) => `${count} ${action}`);
  console.log(`${TURNS} turns, ${messages.length} messages kept by the client: ${counts.join(', ')}`);
}

converse().catch((error) => {
  // An API error carries the proxy's (or the server's) status and message: a 400 context_length_exceeded, a 502 ...
  // (the package puts the status at the start of the message itself).
  const answered = error instanceof OpenAI.APIError && error.status !== undefined;
  const message = error instanceof Error ? error.message : String(error);
  console.error(answered ? `openai-client: ${message}` : `openai-client: cannot reach ${serveUrl} (${message}): is ollm serve running?`);
  process.exitCode = 1;
});
