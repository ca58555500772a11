// A 40-turn tool-using conversation through `ollm serve`, with the `ollama` npm package.
//
//   ollm serve                                     # in another terminal (Ollama at 127.0.0.1:11434)
//   OLLM_MODEL=llama3.1:8b node examples/serve/ollama-client.mjs
//
// OLLM_SERVE_URL is the proxy (default http://127.0.0.1:11500), OLLM_MODEL the model (default
// llama3.2:3b). The client is the plain `ollama` package: only its host points at the proxy.
// Replies stream, as the upstream sends them. Every turn prints the proxy's `x-ollm-context`
// response header (the package does not expose response headers, so a fetch wrapper reads it).
import { Ollama } from 'ollama';

const serveUrl = (process.env.OLLM_SERVE_URL ?? 'http://127.0.0.1:11500').replace(/\/+$/, '');
const model = process.env.OLLM_MODEL ?? 'llama3.2:3b';
const TURNS = 40;
// options.num_ctx: the window Ollama runs the model with, and so the one the proxy holds the request to.
const NUM_CTX = 4096;
// options.num_predict: the proxy keeps this much of the window for the reply.
const REPLY_LIMIT = 256;
// When the model asks for tools itself, how many more times one turn may ask it.
const TOOL_ROUNDS = 3;

let lastContext;
const client = new Ollama({
  host: serveUrl,
  fetch: async (input, init) => {
    const response = await fetch(input, init);
    lastContext = response.headers.get('x-ollm-context') ?? undefined;
    return response;
  },
});

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

const messages = [{ role: 'system', content: 'You are a careful coding agent. Read files before you answer questions about them.' }];
const actions = {};

/** One streamed request: prints the proxy's header and returns the reply's text and tool calls. */
async function ask(label) {
  lastContext = undefined;
  const stream = await client.chat({ model, messages, tools, stream: true, options: { num_ctx: NUM_CTX, num_predict: REPLY_LIMIT } });
  const action = lastContext ? lastContext.split(';')[0] : 'no header';
  actions[action] = (actions[action] ?? 0) + 1;
  console.log(`${label}: ${lastContext ?? '(no x-ollm-context header: is OLLM_SERVE_URL the proxy?)'}`);
  let content = '';
  const calls = [];
  for await (const chunk of stream) {
    content += chunk.message.content;
    calls.push(...(chunk.message.tool_calls ?? []));
  }
  return { content, calls };
}

async function converse() {
  for (let turn = 1; turn <= TURNS; turn += 1) {
    const path = `src/module-${turn % 17}.ts`;
    messages.push({ role: 'user', content: `Turn ${turn}: what does handler${turn}_3 in ${path} return for 2?` });
    // Every turn reads a file, as a coding agent's turns do: the call and its result are added
    // here, so the conversation is the same whatever the model does. When the model asks for a
    // tool itself, the call is run and the model is asked again.
    messages.push({ role: 'assistant', content: '', tool_calls: [{ function: { name: 'read_file', arguments: { path } } }] });
    messages.push({ role: 'tool', tool_name: 'read_file', content: readFile(path, turn) });
    for (let round = 0; round <= TOOL_ROUNDS; round += 1) {
      const { content, calls } = await ask(`turn ${String(turn).padStart(2)}${round > 0 ? `.${round}` : ''}`);
      messages.push({ role: 'assistant', content, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
      if (calls.length === 0) break;
      // Every call gets its result, even on the last round: a call left unanswered breaks the conversation.
      for (const call of calls) {
        const asked = typeof call.function.arguments?.path === 'string' ? call.function.arguments.path : path;
        messages.push({ role: 'tool', tool_name: call.function.name, content: readFile(asked, turn) });
      }
    }
  }
  const counts = Object.entries(actions).map(([action, count]) => `${count} ${action}`);
  console.log(`${TURNS} turns, ${messages.length} messages kept by the client: ${counts.join(', ')}`);
}

converse().catch((error) => {
  // An error answer carries the proxy's (or the server's) status and message: a 400 context_length_exceeded, a 502 ...
  const status = error?.status_code;
  const message = error instanceof Error ? error.message : String(error);
  console.error(status !== undefined ? `ollama-client: ${status} ${message}` : `ollama-client: cannot reach ${serveUrl} (${message}): is ollm serve running?`);
  process.exitCode = 1;
});
