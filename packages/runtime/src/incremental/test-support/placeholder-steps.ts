import { saveRemovedContent, sha256Hex, type CompactCall, type ContextProviderV2, type Message } from '@ollm/core';

/** A system prompt, then `turns` agent steps: a user line, a `read` call and its 40-line result. */
export function readingConversation(turns: number): Message[] {
  const messages: Message[] = [{ id: 'm0', role: 'system', parts: [{ type: 'text', text: 'You are an agent.' }] }];
  for (let turn = 0; turn < turns; turn += 1) {
    const at = messages.length;
    messages.push({ id: `m${at}`, role: 'user', parts: [{ type: 'text', text: `step ${turn}` }] });
    messages.push({ id: `m${at + 1}`, role: 'assistant', parts: [{ type: 'tool-call', callId: `c${turn}`, name: 'read', input: { turn } }] });
    const output = Array.from({ length: 40 }, (_, line) => `line ${line} of file ${turn}: value ${line * turn}`).join('\n');
    messages.push({ id: `m${at + 2}`, role: 'tool', parts: [{ type: 'tool-result', callId: `c${turn}`, name: 'read', output }] });
  }
  return messages;
}

export interface PlaceholderStageOptions {
  readonly name?: string;
  /** Tool results left as they are, the newest (default 2). */
  readonly keep?: number;
  /** Told of every call, before it runs. */
  readonly onCall?: (call: CompactCall) => void;
}

/**
 * A rule stage that replaces every tool result but the newest `keep` by a placeholder naming its
 * sha256 (saved under the logdir when there is one).
 */
export function placeholderStage(options: PlaceholderStageOptions = {}): ContextProviderV2 {
  const keep = options.keep ?? 2;
  return {
    specificationVersion: 'v2',
    name: options.name ?? 'placeholders',
    description: 'test stage',
    async compress(call) {
      options.onCall?.(call);
      const { messages, settings } = call;
      const tools = messages.flatMap((message, index) => (message.role === 'tool' ? [index] : []));
      const kept = new Set(keep === 0 ? [] : tools.slice(-keep));
      const removed: { messageId: string; kind: string; sha256: string; originalTokens: number }[] = [];
      const output = messages.map((message, index) => {
        if (message.role !== 'tool' || kept.has(index)) return message;
        return {
          ...message,
          parts: message.parts.map((part) => {
            if (part.type !== 'tool-result' || part.output.startsWith('[removed')) return part;
            const sha256 = settings.logdir ? saveRemovedContent(settings.logdir, part.output).sha256 : sha256Hex(part.output);
            removed.push({ messageId: message.id, kind: 'tool-result', sha256, originalTokens: 0 });
            return { ...part, output: `[removed ${sha256.slice(0, 12)}]` };
          }),
        };
      });
      return { messages: output, removed };
    },
  };
}
