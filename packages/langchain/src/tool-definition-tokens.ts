import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import type { TokenCounter } from '@ollm/core';

/**
 * Tokens the tool definitions of a request take, counted as the JSON a chat-completions request
 * carries them in (`{"type":"function","function":{name, description, parameters}}`), one tool
 * at a time, each counted once (by object).
 */
export class ToolDefinitionTokens {
  readonly #tokens: TokenCounter;
  readonly #counts = new WeakMap<object, number>();

  constructor(tokens: TokenCounter) {
    this.#tokens = tokens;
  }

  count(tools: readonly unknown[] | undefined): number {
    let total = 0;
    for (const tool of tools ?? []) total += this.#countOne(tool);
    return total;
  }

  #countOne(tool: unknown): number {
    if (tool === null || typeof tool !== 'object') return this.#tokens.countText(JSON.stringify(tool) ?? '');
    const cached = this.#counts.get(tool);
    if (cached !== undefined) return cached;
    let definition: unknown;
    try {
      definition = convertToOpenAITool(tool as Record<string, unknown>);
    } catch {
      // A provider's built-in tool (a plain object LangChain cannot convert) goes as it is.
      definition = tool;
    }
    let text: string;
    try {
      text = JSON.stringify(definition) ?? '';
    } catch {
      text = String((tool as { name?: unknown }).name ?? '');
    }
    const count = this.#tokens.countText(text);
    this.#counts.set(tool, count);
    return count;
  }
}
