import { Ollama, type Message as OllamaMessage } from 'ollama';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { OLLAMA_TOOLS, OPENAI_TOOLS } from './agent-conversation.js';

/** Which official client sends the requests, and whether it streams the reply. */
export interface ChatClientKind {
  readonly api: 'openai' | 'ollama';
  readonly stream: boolean;
}

export interface ChatSettings {
  readonly model: string;
  /** `max_tokens` / `num_predict`: the proxy keeps this much of the window for the reply. */
  readonly replyLimit: number;
  /** Ollama's `num_ctx`. */
  readonly window: number;
  /** Sent with every request (the fake server records them: direct or proxied). */
  readonly headers: Readonly<Record<string, string>>;
}

/** Sends one chat request and resolves to the reply's text once its last byte has been read. */
export type ChatClient = (messages: readonly unknown[]) => Promise<string>;

export function describeClient(kind: ChatClientKind): string {
  return `${kind.api}${kind.stream ? ', streamed' : ''}`;
}

/** The official `openai` or `ollama` client pointed at `url` (a proxy or the model server itself). */
export function createChatClient(kind: ChatClientKind, url: string, settings: ChatSettings): ChatClient {
  if (kind.api === 'openai') {
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'sk-bench', maxRetries: 0, defaultHeaders: { ...settings.headers } });
    const base = { model: settings.model, tools: OPENAI_TOOLS, max_tokens: settings.replyLimit };
    if (!kind.stream)
      return async (messages) => {
        const completion = await client.chat.completions.create({ ...base, messages: messages as ChatCompletionMessageParam[] });
        return completion.choices[0]?.message.content ?? '';
      };
    return async (messages) => {
      const stream = await client.chat.completions.create({ ...base, messages: messages as ChatCompletionMessageParam[], stream: true });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      return text;
    };
  }
  const client = new Ollama({ host: url, headers: { ...settings.headers } });
  const base = { model: settings.model, tools: OLLAMA_TOOLS, options: { num_ctx: settings.window, num_predict: settings.replyLimit } };
  if (!kind.stream)
    return async (messages) => {
      const response = await client.chat({ ...base, messages: messages as OllamaMessage[], stream: false });
      return response.message.content;
    };
  return async (messages) => {
    const stream = await client.chat({ ...base, messages: messages as OllamaMessage[], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.message.content;
    return text;
  };
}
