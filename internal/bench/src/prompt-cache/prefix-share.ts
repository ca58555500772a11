import type { TokenCounter } from '@ollm/core';

/** A chat request as the server gets it: what a chat template renders into the prompt. */
export interface PromptRequest {
  readonly tools?: unknown;
  readonly messages: readonly unknown[];
}

/**
 * The prompt text a server's chat template makes of a request: the tools first, then each message
 * with its role, text, tool calls and call id, in order. A local server's prompt cache (llama.cpp,
 * Ollama) reuses the KV entries of the longest prefix this text shares with the previous prompt.
 */
export function renderPrompt(request: PromptRequest): string {
  const parts = [`<|tools|>${JSON.stringify(request.tools ?? [])}`];
  for (const message of request.messages) {
    const record = (message ?? {}) as Record<string, unknown>;
    const content = record['content'];
    const text = typeof content === 'string' ? content : content === null || content === undefined ? '' : JSON.stringify(content);
    parts.push(
      `<|${String(record['role'])}|>${text}` +
        (record['tool_calls'] === undefined ? '' : `<|calls|>${JSON.stringify(record['tool_calls'])}`) +
        (record['tool_call_id'] === undefined ? '' : `<|id|>${String(record['tool_call_id'])}`),
    );
  }
  return parts.join('\n');
}

/** Characters two texts share from their start. */
export function commonPrefixLength(first: string, second: string): number {
  const limit = Math.min(first.length, second.length);
  let index = 0;
  while (index < limit && first.charCodeAt(index) === second.charCodeAt(index)) index += 1;
  return index;
}

/** One prompt of a run, measured against the prompt before it. */
export interface PromptStep {
  readonly tokens: number;
  /** Tokens of its start that are the previous prompt's start, byte for byte (0 for the first). */
  readonly sharedTokens: number;
}

/** Each prompt's tokens and the tokens it shares with the one before (o200k over the rendered text). */
export function promptSteps(prompts: readonly string[], tokens: TokenCounter): PromptStep[] {
  return prompts.map((prompt, index) => {
    const total = tokens.countText(prompt);
    if (index === 0) return { tokens: total, sharedTokens: 0 };
    const shared = commonPrefixLength(prompts[index - 1]!, prompt);
    return { tokens: total, sharedTokens: shared === prompt.length ? total : Math.min(total, tokens.countText(prompt.slice(0, shared))) };
  });
}
