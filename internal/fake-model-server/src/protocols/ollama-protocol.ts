import type { ChatExchange, ChatOutcome, FakeModel, RenderedBody } from '../chat-exchange.js';
import { splitIntoDeltas } from '../chat-exchange.js';

// Ollama's wire format, as the official `ollama` client reads it (ChatResponse, ShowResponse, ListResponse).
const NDJSON = 'application/x-ndjson';
const JSON_TYPE = 'application/json; charset=utf-8';
const FAKE_DIGEST = 'sha256:' + 'f'.repeat(64);
const FIXED_DATE = '2026-01-01T00:00:00.000Z';

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function parseOllamaChat(body: Record<string, unknown>): ChatExchange & { messages: unknown } {
  const options = (body['options'] ?? {}) as Record<string, unknown>;
  const maxTokens = numberOrUndefined(options['num_predict']);
  return {
    model: typeof body['model'] === 'string' ? body['model'] : '',
    messages: body['messages'],
    // Ollama streams unless told not to.
    stream: body['stream'] !== false,
    includeUsage: true,
    ...(maxTokens !== undefined && maxTokens >= 0 ? { maxTokens } : {}),
  };
}

function base(exchange: ChatExchange) {
  return { model: exchange.model, created_at: new Date().toISOString() };
}

function finalFields(outcome: ChatOutcome) {
  return {
    done: true,
    done_reason: outcome.finishReason === 'length' ? 'length' : 'stop',
    total_duration: 1_000_000,
    load_duration: 100_000,
    prompt_eval_count: outcome.promptTokens,
    prompt_eval_duration: 200_000,
    eval_count: outcome.completionTokens,
    eval_duration: 700_000,
  };
}

function ollamaToolCalls(outcome: ChatOutcome) {
  return outcome.toolCalls ? { tool_calls: outcome.toolCalls.map((call) => ({ function: { name: call.name, arguments: call.arguments ?? {} } })) } : {};
}

export function renderOllamaChat(exchange: ChatExchange, outcome: ChatOutcome): RenderedBody {
  if (!exchange.stream) {
    const body = { ...base(exchange), message: { role: 'assistant', content: outcome.text, ...ollamaToolCalls(outcome) }, ...finalFields(outcome) };
    return { contentType: JSON_TYPE, chunks: [JSON.stringify(body)] };
  }
  const lines = splitIntoDeltas(outcome.text).map(
    (delta) => JSON.stringify({ ...base(exchange), message: { role: 'assistant', content: delta }, done: false }) + '\n',
  );
  if (outcome.toolCalls)
    lines.push(JSON.stringify({ ...base(exchange), message: { role: 'assistant', content: '', ...ollamaToolCalls(outcome) }, done: false }) + '\n');
  lines.push(JSON.stringify({ ...base(exchange), message: { role: 'assistant', content: '' }, ...finalFields(outcome) }) + '\n');
  return { contentType: NDJSON, chunks: lines };
}

export function renderOllamaMalformed(exchange: ChatExchange): RenderedBody {
  const broken = `{"model":${JSON.stringify(exchange.model)},"message":{"role":"assistant","content":"trunc`;
  return exchange.stream ? { contentType: NDJSON, chunks: [broken + '\n'] } : { contentType: JSON_TYPE, chunks: [broken] };
}

export function renderOllamaWrongShape(exchange: ChatExchange): RenderedBody {
  const body = { status: 'ok', result: { text: 'this is not a chat response' }, done: true };
  return exchange.stream ? { contentType: NDJSON, chunks: [JSON.stringify(body) + '\n'] } : { contentType: JSON_TYPE, chunks: [JSON.stringify(body)] };
}

export function ollamaError(message: string): unknown {
  return { error: message };
}

function details(model: FakeModel) {
  return {
    parent_model: '',
    format: 'gguf',
    family: model.family ?? 'llama',
    families: [model.family ?? 'llama'],
    parameter_size: model.parameterSize ?? '8.0B',
    quantization_level: model.quantization ?? 'Q4_K_M',
  };
}

export function ollamaTags(models: readonly FakeModel[]): unknown {
  return {
    models: models.map((model) => ({
      name: model.name,
      model: model.name,
      modified_at: FIXED_DATE,
      size: 4_920_753_328,
      digest: FAKE_DIGEST,
      details: details(model),
    })),
  };
}

/**
 * `GET /api/ps`: the models loaded (those that answered a chat), each with the window it runs
 * with (`context_length`: the model's `loadedContextLength`, else Ollama's default 4,096 capped by
 * its trained length), as Ollama (>= 0.11) reports them.
 */
export function ollamaPs(loaded: readonly FakeModel[]): unknown {
  return {
    models: loaded.map((model) => ({
      name: model.name,
      model: model.name,
      size: 4_920_753_328,
      digest: FAKE_DIGEST,
      details: details(model),
      expires_at: FIXED_DATE,
      size_vram: 4_920_753_328,
      context_length: model.loadedContextLength ?? Math.min(4096, model.contextLength ?? 8192),
    })),
  };
}

export function ollamaShow(model: FakeModel): unknown {
  const architecture = model.family ?? 'llama';
  return {
    license: 'fake license',
    modelfile: `FROM ${model.name}`,
    parameters: 'stop "<|eot_id|>"',
    template: '{{ .Prompt }}',
    details: details(model),
    model_info: {
      'general.architecture': architecture,
      'general.parameter_count': Math.round(parseFloat(model.parameterSize ?? '8.0') * 1e9),
      [`${architecture}.context_length`]: model.contextLength ?? 8192,
      [`${architecture}.embedding_length`]: 4096,
    },
    capabilities: ['completion', 'tools'],
    modified_at: FIXED_DATE,
  };
}
