// A loopback model server that plays a model through one scripted task, for `pnpm agents-smoke`.
//
// It speaks what coding agents use: Anthropic `/v1/messages` (+ `count_tokens`), OpenAI
// `/v1/responses` and `/v1/chat/completions`, Ollama `/api/chat`, and the listing routes
// (`/api/tags`, `/api/show`, `/api/version`, `/v1/models`, `/props`), streamed (SSE / NDJSON) or not.
//
// The task: read files f01..fNN with the agent's shell tool, then answer with the marker of the
// first user message. At each main-loop request the model finds the highest `[[read:fNN]]` it can
// see in the request (a file's first line, or a summary that names it) and asks for the next file;
// after `steps` files it answers with the marker if the request still holds it, else "marker lost".
//
// Over the window (prompt + tools, o200k tokens) it behaves as the upstream named by `mode`:
// `ollama` drops the oldest non-system messages silently until the prompt fits and reports the
// truncated size in its usage; `llamacpp` refuses with llama.cpp's 400 `exceed_context_size_error`.
import { createServer } from 'node:http';
import { TokenCounter, createTokenizer } from '@ollm/core';

const tokenizer = createTokenizer('o200k_base');
export const countTokens = (text) => (text === '' ? 0 : tokenizer.countTokens(text));
// Kept for callers that want message-level counts.
export const counter = new TokenCounter(tokenizer);

const SHELL_NAMES = [
  'bash',
  'shell',
  'shell_command',
  'exec_command',
  'execute_command',
  'run_command',
  'run_terminal_cmd',
  'terminal',
  'exec',
  'run_shell_command',
];
const READ_RE = /\[\[read:f(\d+)\]\]/g;
// Ends the summaries this model writes: a request that carries one back is not asking for another.
const SUMMARY_TAIL = 'Next: cat the next file.';
const CALL_RE = /\bcat f(\d+)/g;
const SUMMARY_RE =
  /summar|compact(ion)? (the|this) conversation|context checkpoint|continuing (our|the) conversation|handoff|condense|<summary>|create a detailed prompt|new session will|checkpoint/i;

const isRecord = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const textOf = (content) => {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part === 'string' ? part : isRecord(part) ? partText(part) : '')).join('\n');
  if (isRecord(content)) return partText(content);
  return content === undefined || content === null ? '' : String(content);
};
function partText(part) {
  switch (part.type) {
    case 'text':
    case 'input_text':
    case 'output_text':
      return String(part.text ?? '');
    case 'thinking':
      return String(part.thinking ?? '');
    case 'redacted_thinking':
      return '';
    case 'tool_use':
      return `[call ${part.name} ${JSON.stringify(part.input ?? {})}]`;
    case 'tool_result':
      return `[result ${textOf(part.content)}]`;
    case 'image':
    case 'input_image':
      return '[image]';
    default:
      return typeof part.text === 'string' ? part.text : '';
  }
}

/** A request as one list of {role, text} turns, its tools and its reply limit, whatever the protocol. */
export function normalize(protocol, body) {
  const turns = [];
  let tools = Array.isArray(body.tools) ? body.tools : [];
  let maxTokens;
  if (protocol === 'anthropic') {
    if (body.system !== undefined) turns.push({ role: 'system', text: textOf(body.system) });
    for (const message of body.messages ?? [])
      turns.push({ role: message.role, text: textOf(message.content), results: countParts(message.content, 'tool_result') });
    maxTokens = body.max_tokens;
  } else if (protocol === 'responses') {
    if (typeof body.instructions === 'string') turns.push({ role: 'system', text: body.instructions });
    const input = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : (body.input ?? []);
    for (const item of input) {
      if (!isRecord(item)) continue;
      const type = item.type ?? 'message';
      if (type === 'message') turns.push({ role: item.role === 'developer' ? 'system' : item.role, text: textOf(item.content) });
      else if (type === 'function_call' || type === 'custom_tool_call' || type === 'local_shell_call')
        turns.push({ role: 'assistant', text: `[call ${item.name ?? 'local_shell'} ${item.arguments ?? item.input ?? JSON.stringify(item.action ?? {})}]` });
      else if (type.endsWith('_output')) turns.push({ role: 'tool', text: textOf(item.output), results: 1 });
      else if (type === 'reasoning')
        turns.push({ role: 'assistant', text: (item.summary ?? []).map((s) => s.text ?? '').join('\n') + textOf(item.content ?? '') });
      else if (type === 'compaction' || type === 'compaction_summary') turns.push({ role: 'user', text: String(item.encrypted_content ?? item.summary ?? '') });
      else turns.push({ role: 'user', text: JSON.stringify(item) });
    }
    maxTokens = body.max_output_tokens;
  } else {
    // OpenAI chat completions and Ollama /api/chat share the message shape.
    for (const message of body.messages ?? []) {
      const calls = (message.tool_calls ?? []).map(
        (call) =>
          `[call ${call.function?.name} ${typeof call.function?.arguments === 'string' ? call.function.arguments : JSON.stringify(call.function?.arguments ?? {})}]`,
      );
      const role = message.role === 'developer' ? 'system' : message.role;
      turns.push({ role, text: [textOf(message.content), ...calls].filter(Boolean).join('\n'), results: role === 'tool' ? 1 : 0 });
    }
    maxTokens = protocol === 'ollama' ? body.options?.num_predict : (body.max_completion_tokens ?? body.max_tokens);
  }
  return { turns, tools, maxTokens };
}
const countParts = (content, type) => (Array.isArray(content) ? content.filter((part) => isRecord(part) && part.type === type).length : 0);

/** The text a server's chat template would make of it: tools first (they go in the system prompt), then each turn. */
export function render({ turns, tools }) {
  const head = tools.length > 0 ? `<|tools|>\n${JSON.stringify(tools)}\n` : '';
  return head + turns.map((turn) => `<|${turn.role}|>\n${turn.text}\n`).join('');
}

/** The agent's shell tool in `tools`, whatever its name and API shape, with its JSON schema. */
export function findShellTool(tools) {
  const named = tools
    .map((tool) => ({
      name: tool.function?.name ?? tool.name ?? (tool.type === 'local_shell' ? 'local_shell' : undefined),
      schema: tool.function?.parameters ?? tool.input_schema ?? tool.parameters ?? {},
      type: tool.type,
    }))
    .filter((tool) => typeof tool.name === 'string');
  for (const wanted of SHELL_NAMES) {
    const found = named.find((tool) => tool.name.toLowerCase() === wanted);
    if (found) return found;
  }
  return named.find((tool) => /bash|shell|command|exec/i.test(tool.name));
}

/** A tool that ends the run with an answer, when the agent has one. */
function findCompletionTool(tools) {
  for (const tool of tools) {
    const name = tool.function?.name ?? tool.name;
    if (typeof name === 'string' && /^(submit_and_exit|attempt_completion|task_complete|complete_task|finish)$/.test(name))
      return { name, schema: tool.function?.parameters ?? tool.input_schema ?? tool.parameters ?? {}, type: tool.type };
  }
  return undefined;
}

/** Arguments for `cat <file>` as the shell tool's schema demands them. */
export function shellArguments(tool, file) {
  const properties = tool.schema?.properties ?? {};
  const args = {};
  const commandKey = ['command', 'cmd', 'commands', 'script', 'input'].find((key) => key in properties) ?? 'command';
  const commandType = properties[commandKey]?.type;
  // `command: string[]` is one argv (Codex's `shell`); `commands: string[]` is a list of command lines (Cline's `run_commands`).
  args[commandKey] = commandType === 'array' ? (commandKey === 'commands' ? [`cat ${file}`] : ['bash', '-lc', `cat ${file}`]) : `cat ${file}`;
  fillRequired(tool.schema, args, false, file);
  if ('workdir' in properties && !('workdir' in args) && tool.cwd) args.workdir = tool.cwd;
  return args;
}

/** Gives every required property the schema asks for and `args` lacks a plausible value. */
function fillRequired(schema, args, booleanValue, file = 'the files') {
  const properties = schema?.properties ?? {};
  for (const key of schema?.required ?? []) {
    if (key in args) continue;
    const property = properties[key] ?? {};
    const type = Array.isArray(property.type) ? property.type[0] : property.type;
    if (property.enum) args[key] = property.enum[0];
    else if (type === 'boolean') args[key] = booleanValue;
    else if (type === 'number' || type === 'integer') args[key] = /timeout/i.test(key) ? 60 : 1;
    else if (type === 'array') args[key] = [];
    else if (type === 'object') args[key] = {};
    else if (/workdir|cwd|directory|path/i.test(key)) args[key] = process.cwd();
    else args[key] = `Read ${file}`;
  }
  return args;
}

/** The model's next move for a normalized request. */
export function decide(normalized, task) {
  const all = normalized.turns.map((turn) => turn.text).join('\n');
  const hasMarker = all.includes(task.marker);
  const lastUser = [...normalized.turns].reverse().find((turn) => turn.role === 'user' && !turn.results);
  // Progress: the files whose content it sees (a result's first line, or a summary naming it), and
  // the files it already asked for (its own `cat fNN` calls, kept when a compaction folds their output).
  let highest = 0;
  for (const match of all.matchAll(READ_RE)) highest = Math.max(highest, Number(match[1]));
  for (const turn of normalized.turns) {
    if (turn.role !== 'assistant') continue;
    for (const match of turn.text.matchAll(CALL_RE)) highest = Math.max(highest, Number(match[1]));
  }
  const shell = findShellTool(normalized.tools);
  const system = normalized.turns
    .filter((turn) => turn.role === 'system')
    .map((turn) => turn.text)
    .join('\n');
  const xmlShell = !shell && /<execute_command>/.test(system);
  // A summary the agent asks for: its last (non-system) turn is a user turn that asks for one.
  const lastTurn = [...normalized.turns].reverse().find((turn) => turn.role !== 'system');
  const mainLoop = Boolean(shell || xmlShell);
  // A request without the shell tool that asks for a summary may quote the task and an earlier summary.
  const summaryAsked =
    lastTurn?.role === 'user' &&
    !lastTurn.results &&
    SUMMARY_RE.test(lastTurn.text.slice(-6000)) &&
    (!mainLoop || (!lastTurn.text.includes(task.promptTag) && !lastTurn.text.includes(SUMMARY_TAIL)));
  if (summaryAsked || !mainLoop) {
    // A side request: a title, a topic check, a quota probe, or a summary the agent asks for.
    const files = highest > 0 ? `Files read so far: f01 to f${pad(highest)} ([[read:f${pad(highest)}]] done). ` : '';
    const marker = hasMarker ? `The first message's marker is ${task.marker}. ` : '';
    const text = summaryAsked
      ? `Summary: the user asked to read each file f01..f${pad(task.steps)} with cat, then answer with the marker. ${files}${marker}${SUMMARY_TAIL}`
      : /title/i.test(all.slice(-3000))
        ? 'Reading files'
        : /isNewTopic/i.test(all)
          ? '{"isNewTopic": false, "title": null}'
          : 'OK.';
    return { kind: summaryAsked ? 'summary' : 'side', text, hasMarker, highest };
  }
  if (highest >= task.steps) {
    const text = hasMarker
      ? `All ${task.steps} files are read. The marker is ${task.marker}.`
      : `All ${task.steps} files are read, but the marker is lost: it is not in what I was sent.`;
    const attempt = xmlShell ? `${text}\n<attempt_completion>\n<result>\n${text}\n</result>\n</attempt_completion>` : text;
    // An agent that ends a run only through a completion tool (Cline's submit_and_exit) gets the answer in it.
    const completion = findCompletionTool(normalized.tools);
    if (completion) {
      const key = (completion.schema?.required ?? [])[0] ?? Object.keys(completion.schema?.properties ?? {})[0] ?? 'result';
      return {
        kind: 'final',
        text,
        hasMarker,
        highest,
        final: true,
        call: { name: completion.name, type: completion.type, arguments: fillRequired(completion.schema, { [key]: text }, true) },
      };
    }
    return { kind: 'final', text: attempt, hasMarker, highest, final: true };
  }
  const file = `f${pad(highest + 1)}`;
  if (xmlShell) {
    return {
      kind: 'main',
      text: `<execute_command>\n<command>cat ${file}</command>\n<requires_approval>false</requires_approval>\n</execute_command>`,
      hasMarker,
      highest,
      file,
    };
  }
  return {
    kind: 'main',
    text: '',
    call: { name: shell.name, type: shell.type, arguments: shellArguments({ ...shell, cwd: task.cwd }, file) },
    hasMarker,
    highest,
    file,
  };
}
export const pad = (n) => String(n).padStart(2, '0');

/** Drops the oldest non-system turns (whole protocol messages) until the prompt fits, as Ollama does. */
function truncateLikeOllama(protocol, body, window) {
  const copy = structuredClone(body);
  const listKey = protocol === 'responses' ? 'input' : 'messages';
  if (protocol === 'responses' && typeof copy.input === 'string') return { body: copy, normalized: normalize(protocol, copy) };
  const list = copy[listKey] ?? [];
  const isSystem = (item) => item.role === 'system' || item.role === 'developer';
  for (;;) {
    const normalized = normalize(protocol, copy);
    const tokens = countTokens(render(normalized));
    const removable = list.findIndex((item, index) => !isSystem(item) && index < list.length - 1);
    if (tokens <= window || removable < 0) return { body: copy, normalized, tokens };
    list.splice(removable, 1);
  }
}

/**
 * Starts the scripted model. `task`: { marker, promptTag, steps, cwd }; `mode`: ollama | llamacpp;
 * `window`: tokens. Returns { url, requests, close }.
 */
export async function startScriptedModel({ mode, window, task, model = 'local-coder', samples }) {
  const requests = [];
  let callNumber = 0;
  const server = createServer((request, response) => {
    handle(request, response).catch((error) => {
      if (!response.headersSent) json(response, 500, { error: { message: String(error?.stack ?? error) } });
      else response.destroy();
    });
  });
  async function handle(request, response) {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/^\/v1\/v1\//, '/v1/');
    let raw = '';
    for await (const chunk of request) raw += chunk;
    let body = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      body = {};
    }
    const protocol =
      path === '/v1/messages'
        ? 'anthropic'
        : path === '/v1/responses'
          ? 'responses'
          : path === '/v1/chat/completions' || path === '/chat/completions'
            ? 'openai'
            : path === '/api/chat'
              ? 'ollama'
              : undefined;
    if (path === '/v1/messages/count_tokens') {
      const normalized = normalize('anthropic', body);
      const tokens = countTokens(render(normalized));
      requests.push({ path, kind: 'count', tokens, over: false });
      return json(response, 200, { input_tokens: tokens });
    }
    // llama.cpp's server has no Ollama routes.
    if (!protocol || (mode === 'llamacpp' && protocol === 'ollama')) return listing(path, request.method, body, response);
    const normalized = normalize(protocol, body);
    const text = render(normalized);
    const toolsTokens = normalized.tools.length > 0 ? countTokens(JSON.stringify(normalized.tools)) : 0;
    const tokens = countTokens(text);
    const over = tokens > window;
    const entry = { n: requests.length + 1, path, protocol, tokens, toolsTokens, over, maxTokens: normalized.maxTokens, stream: body.stream === true, text };
    requests.push(entry);
    if (samples && requests.filter((r) => r.protocol).length <= 1) samples(`first-${protocol}`, body);
    // AGENTS_SMOKE_ALL_SAMPLES=1: every chat body, to compare consecutive requests.
    if (samples && process.env.AGENTS_SMOKE_ALL_SAMPLES === '1') samples(`request-${String(entry.n).padStart(3, '0')}-${protocol}`, body, true);
    let seen = normalized;
    let promptTokens = tokens;
    if (over) {
      samples?.(`over-${protocol}-${entry.n}`, body);
      if (mode === 'llamacpp') {
        entry.kind = 'refused';
        entry.refused = true;
        return json(response, 400, {
          error: {
            code: 400,
            message: 'the request exceeds the available context size, try increasing it',
            type: 'exceed_context_size_error',
            n_prompt_tokens: tokens,
            n_ctx: window,
          },
        });
      }
      const truncated = truncateLikeOllama(protocol, body, window);
      seen = truncated.normalized;
      promptTokens = truncated.tokens ?? countTokens(render(seen));
      entry.truncatedTo = promptTokens;
    }
    const move = decide(seen, task);
    // The model can no longer see files it had read: the request it gets after a compaction lost them.
    const previous = requests.filter((r) => r.kind === 'main' || r.kind === 'final').at(-1);
    if (previous && move.kind === 'main' && move.highest < previous.highest) samples?.(`progress-lost-${protocol}-${entry.n}`, body);
    entry.kind = move.kind;
    entry.hasMarker = move.hasMarker;
    entry.highest = move.highest;
    entry.file = move.file;
    entry.reply = move.text;
    const call = move.call ? { ...move.call, id: `call_${++callNumber}` } : undefined;
    const usage = { prompt: promptTokens, completion: Math.max(1, countTokens(move.text) + (call ? 20 : 0)) };
    const stream = protocol === 'ollama' ? body.stream !== false : body.stream === true;
    const chunks = renderReply(protocol, {
      model: body.model ?? model,
      text: move.text,
      call,
      usage,
      stream,
      includeUsage: body.stream_options?.include_usage === true,
      body,
    });
    response.writeHead(200, { 'content-type': stream ? (protocol === 'ollama' ? 'application/x-ndjson' : 'text/event-stream') : 'application/json' });
    for (const chunk of chunks) response.write(chunk);
    response.end();
  }
  function listing(path, method, body, response) {
    const created = 1_767_225_600;
    if (mode === 'llamacpp' && path.startsWith('/api/')) {
      requests.push({ path, kind: 'unknown-route', method });
      return json(response, 404, { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } });
    }
    if (path === '/api/tags')
      return json(response, 200, {
        models: [
          {
            name: model,
            model,
            modified_at: '2026-01-01T00:00:00Z',
            size: 1,
            digest: 'sha256:0',
            details: { family: 'qwen3', parameter_size: '30B', quantization_level: 'Q4_K_M' },
          },
        ],
      });
    if (path === '/api/version') return json(response, 200, { version: '0.14.2' });
    if (path === '/api/show')
      return json(response, 200, {
        details: { family: 'qwen3', parameter_size: '30B', quantization_level: 'Q4_K_M' },
        model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': mode === 'ollama' ? 262144 : window },
        capabilities: ['completion', 'tools'],
        parameters: mode === 'ollama' ? `num_ctx ${window}` : '',
      });
    if (path === '/api/ps') return json(response, 200, { models: [{ name: model, model, context_length: window }] });
    if (path === '/props') return json(response, 200, { default_generation_settings: { n_ctx: window }, n_ctx: window, model_path: model });
    if (path === '/v1/models' || path === '/models')
      return json(response, 200, {
        object: 'list',
        data: [{ id: model, object: 'model', created, owned_by: 'local', meta: { n_ctx_train: window, n_ctx: window }, context_length: window }],
      });
    if (path.startsWith('/v1/models/')) return json(response, 200, { id: model, object: 'model', created, owned_by: 'local', context_length: window });
    if (path === '/api/pull') return json(response, 200, { status: 'success' });
    requests.push({ path, kind: 'unknown-route', method });
    return json(response, 404, { error: { message: `no route ${method} ${path}` } });
  }
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function json(response, status, value) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}

/** The reply in the protocol's wire shape: one JSON body, or the chunks of its stream. */
function renderReply(protocol, { model, text, call, usage, stream, includeUsage, body }) {
  const created = Math.floor(Date.now() / 1000);
  if (protocol === 'anthropic') {
    const id = `msg_${created}_${Math.random().toString(36).slice(2, 8)}`;
    const content = [];
    if (text) content.push({ type: 'text', text });
    if (call) content.push({ type: 'tool_use', id: `toolu_${call.id}`, name: call.name, input: call.arguments });
    const stop_reason = call ? 'tool_use' : 'end_turn';
    const u = { input_tokens: usage.prompt, output_tokens: usage.completion, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    if (!stream) return [JSON.stringify({ id, type: 'message', role: 'assistant', model, content, stop_reason, stop_sequence: null, usage: u })];
    const out = [];
    const ev = (type, value) => out.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...value })}\n\n`);
    ev('message_start', {
      message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...u, output_tokens: 1 } },
    });
    content.forEach((block, index) => {
      if (block.type === 'text') {
        ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
        ev('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
      } else {
        ev('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
        ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
      }
      ev('content_block_stop', { index });
    });
    ev('message_delta', { delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: usage.completion } });
    ev('message_stop', {});
    return out;
  }
  if (protocol === 'openai') {
    const id = `chatcmpl-${created}${Math.random().toString(36).slice(2, 8)}`;
    const toolCalls = call ? [{ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }] : undefined;
    const finish_reason = call ? 'tool_calls' : 'stop';
    const u = { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion };
    if (!stream)
      return [
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: text || null, ...(toolCalls ? { tool_calls: toolCalls } : {}) }, finish_reason }],
          usage: u,
        }),
      ];
    const out = [];
    const chunk = (delta, finish = null, extra = {}) =>
      out.push(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`,
      );
    chunk({ role: 'assistant', content: '' });
    if (text) chunk({ content: text });
    if (toolCalls) chunk({ tool_calls: [{ index: 0, ...toolCalls[0] }] });
    chunk({}, finish_reason);
    if (includeUsage) out.push(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: u })}\n\n`);
    out.push('data: [DONE]\n\n');
    return out;
  }
  if (protocol === 'ollama') {
    const message = { role: 'assistant', content: text, ...(call ? { tool_calls: [{ function: { name: call.name, arguments: call.arguments } }] } : {}) };
    const done = {
      model,
      created_at: new Date().toISOString(),
      message,
      done: true,
      done_reason: 'stop',
      total_duration: 1,
      prompt_eval_count: usage.prompt,
      eval_count: usage.completion,
    };
    if (!stream) return [JSON.stringify(done)];
    return [
      `${JSON.stringify({ model, created_at: new Date().toISOString(), message, done: false })}\n`,
      `${JSON.stringify({ ...done, message: { role: 'assistant', content: '' } })}\n`,
    ];
  }
  // Responses
  const id = `resp_${created}${Math.random().toString(36).slice(2, 8)}`;
  const output = [];
  if (text)
    output.push({ type: 'message', id: `msg_${id}`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] });
  if (call) {
    if (call.type === 'local_shell')
      output.push({
        type: 'local_shell_call',
        id: `lsh_${call.id}`,
        call_id: call.id,
        status: 'completed',
        action: { type: 'exec', command: call.arguments.command, env: {} },
      });
    else
      output.push({
        type: 'function_call',
        id: `fc_${call.id}`,
        call_id: call.id,
        name: call.name,
        arguments: JSON.stringify(call.arguments),
        status: 'completed',
      });
  }
  const u = {
    input_tokens: usage.prompt,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.completion,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.prompt + usage.completion,
  };
  const final = {
    id,
    object: 'response',
    created_at: created,
    status: 'completed',
    model,
    output,
    usage: u,
    parallel_tool_calls: false,
    tools: body.tools ?? [],
    error: null,
    incomplete_details: null,
  };
  if (!stream) return [JSON.stringify(final)];
  const out = [];
  let sequence = 0;
  const ev = (type, value) => out.push(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...value })}\n\n`);
  ev('response.created', { response: { ...final, status: 'in_progress', output: [], usage: null } });
  ev('response.in_progress', { response: { ...final, status: 'in_progress', output: [], usage: null } });
  output.forEach((item, output_index) => {
    if (item.type === 'message') {
      ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      ev('response.content_part.added', { item_id: item.id, output_index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
      ev('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta: text });
      ev('response.output_text.done', { item_id: item.id, output_index, content_index: 0, text });
      ev('response.content_part.done', { item_id: item.id, output_index, content_index: 0, part: item.content[0] });
    } else {
      ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', ...(item.arguments !== undefined ? { arguments: '' } : {}) } });
      if (item.arguments !== undefined) {
        ev('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: item.arguments });
        ev('response.function_call_arguments.done', { item_id: item.id, output_index, arguments: item.arguments });
      }
    }
    ev('response.output_item.done', { output_index, item });
  });
  ev('response.completed', { response: final });
  return out;
}
