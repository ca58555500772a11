import { messageText, renderMessage, type LanguageModel as OllmLanguageModel, type Message } from '@ollm/core';
import { generateText, type LanguageModel, type ModelMessage } from 'ai';

/**
 * An AI SDK model as the model client ollm's model stages call (goal-aware, summarize): their
 * prompts are plain text, sent with `generateText` (its retries included). Pass the model
 * unwrapped: a summary request need not go through the middleware it serves.
 */
export function ollmModelClient(model: LanguageModel): OllmLanguageModel {
  const provider = typeof model === 'string' ? 'gateway' : model.provider;
  const modelId = typeof model === 'string' ? model : model.modelId;
  return {
    specificationVersion: 'v1',
    provider,
    modelId,
    async complete({ messages, maxOutputTokens, temperature, abortSignal }) {
      const leading = messages.findIndex((message) => message.role !== 'system');
      const systemCount = leading === -1 ? messages.length : leading;
      const system = messages.slice(0, systemCount).map(textOf).join('\n\n');
      const rest: ModelMessage[] = messages.slice(systemCount).map((message) => {
        const content = textOf(message);
        return message.role === 'assistant'
          ? { role: 'assistant', content }
          : message.role === 'system'
            ? { role: 'system', content }
            : { role: 'user', content };
      });
      const result = await generateText({
        model,
        ...(system !== '' ? { system } : {}),
        messages: rest.length > 0 ? rest : [{ role: 'user', content: '' }],
        ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
        ...(temperature !== undefined ? { temperature } : {}),
        ...(abortSignal ? { abortSignal } : {}),
      });
      return {
        text: result.text,
        usage: {
          ...(result.usage.inputTokens !== undefined ? { inputTokens: result.usage.inputTokens } : {}),
          ...(result.usage.outputTokens !== undefined ? { outputTokens: result.usage.outputTokens } : {}),
        },
        finishReason: result.finishReason,
      };
    },
  };
}

/** A message's text; one with calls, results or files as ollm renders it. */
function textOf(message: Message): string {
  return message.parts.every((part) => part.type === 'text') ? messageText(message) : renderMessage(message).replace(/^\w+: /, '');
}
