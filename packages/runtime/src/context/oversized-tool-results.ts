import { fitToTokens, type Message, type MessagePart, saveRemovedContent, sha256Hex, type TokenCounting } from '@ollm/core';

/** A tool result this many times over `maxToolResultTokens` is cut before any request carries it. */
export const OVERSIZED_TOOL_RESULT_FACTOR = 2;

export interface TruncatedToolResult {
  readonly messageId: string;
  readonly callId: string;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly sha256: string;
}

/**
 * Cuts every tool result over `factor x maxToolResultTokens` to its head and tail within
 * `maxToolResultTokens`, whatever the threshold says: one huge command output must not take the
 * window, or be sent whole until the next compaction. The full output is saved under `logdir`
 * (by sha256) and the placeholder names the reference `ollm recover` takes. Pinned messages stay.
 */
export function truncateOversizedToolResults(
  messages: readonly Message[],
  options: { readonly tokens: TokenCounting; readonly maxToolResultTokens: number; readonly logdir?: string; readonly factor?: number },
): { messages: Message[]; truncated: TruncatedToolResult[] } {
  const { tokens, maxToolResultTokens } = options;
  const threshold = maxToolResultTokens * (options.factor ?? OVERSIZED_TOOL_RESULT_FACTOR);
  const truncated: TruncatedToolResult[] = [];
  const output = messages.map((message) => {
    if (message.pinned || !message.parts.some((part) => part.type === 'tool-result')) return message;
    let changed = false;
    const parts = message.parts.map((part): MessagePart => {
      if (part.type !== 'tool-result') return part;
      const tokensBefore = tokens.countPartText(part);
      if (tokensBefore <= threshold) return part;
      const sha256 = options.logdir ? saveRemovedContent(options.logdir, part.output).sha256 : sha256Hex(part.output);
      const note = `[ollm: output cut from ${tokensBefore} to about ${maxToolResultTokens} tokens; full output: ollm recover ${sha256.slice(0, 12)}]`;
      const kept = fitToTokens(part.output, Math.max(1, maxToolResultTokens - tokens.countText(note) - 2), tokens.tokenizer);
      const cut: MessagePart = { ...part, output: `${kept}\n${note}` };
      truncated.push({ messageId: message.id, callId: part.callId, tokensBefore, tokensAfter: tokens.countPartText(cut), sha256 });
      changed = true;
      return cut;
    });
    return changed ? { ...message, parts } : message;
  });
  return { messages: output, truncated };
}
