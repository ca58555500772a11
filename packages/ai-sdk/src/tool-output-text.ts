import type { PromptToolOutput } from './prompt-types.js';

/** What the AI SDK's OpenAI-compatible providers send for a denied call without a reason. */
const DENIED = 'Tool call execution denied.';

/**
 * A tool result's output as the text ollm compacts: the text itself, JSON as the OpenAI-compatible
 * providers send it (`JSON.stringify`), a denial's reason; a `content` output's texts, one a line,
 * with `[image/png]`-style markers for its files (their bytes are no context text, as for a file part).
 */
export function toolOutputText(output: PromptToolOutput): { readonly text: string; readonly isError: boolean } {
  switch (output.type) {
    case 'text':
      return { text: output.value, isError: false };
    case 'error-text':
      return { text: output.value, isError: true };
    case 'json':
      return { text: jsonText(output.value), isError: false };
    case 'error-json':
      return { text: jsonText(output.value), isError: true };
    case 'execution-denied':
      return { text: output.reason ?? DENIED, isError: true };
    case 'content':
      return {
        text: output.value
          .map((item) => (item.type === 'text' ? item.text : `[${'mediaType' in item && item.mediaType ? item.mediaType : item.type}]`))
          .join('\n'),
        isError: false,
      };
  }
}

/**
 * The output `original` becomes when ollm rewrote its text: the same type where the text still
 * fits it (JSON that still parses stays JSON, an error stays an error, a denial a denial), text
 * otherwise; its provider options kept, and a `content` output's files kept after the new text.
 */
export function rewrittenToolOutput(original: PromptToolOutput, text: string): PromptToolOutput {
  switch (original.type) {
    case 'text':
    case 'error-text':
      return { ...original, value: text };
    case 'json':
    case 'error-json': {
      const parsed = parseJson(text);
      if (parsed.ok) return { ...original, value: parsed.value as typeof original.value };
      const options = original.providerOptions ? { providerOptions: original.providerOptions } : {};
      return { type: original.type === 'json' ? 'text' : 'error-text', value: text, ...options };
    }
    case 'execution-denied':
      return { ...original, reason: text };
    case 'content':
      return { ...original, value: [{ type: 'text', text }, ...original.value.filter((item) => item.type !== 'text')] };
  }
}

function jsonText(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
