import { partText, type Message, type MessagePart, type MessageRole, type TokenCounter } from '@ollm/core';

/** What a part of the context is, for the stats breakdown. */
export type ContentKind = 'system' | 'user' | 'assistantText' | 'reasoning' | 'toolCalls' | 'toolResults' | 'files';
export const CONTENT_KINDS: readonly ContentKind[] = ['system', 'user', 'assistantText', 'reasoning', 'toolCalls', 'toolResults', 'files'];

export interface KindTotals {
  readonly parts: number;
  readonly tokens: number;
}

export interface LargestToolResult {
  readonly conversationId: string;
  readonly messageId: string;
  readonly callId: string;
  readonly name?: string;
  readonly tokens: number;
}

export interface ConversationStats {
  readonly messages: number;
  readonly messagesByRole: Readonly<Record<MessageRole, number>>;
  /** Tokens of each kind's part text alone (no per-message overhead). */
  readonly byKind: Readonly<Record<ContentKind, KindTotals>>;
  /** total minus the sum of the kinds: per-message and per-tool-call overhead, author names. */
  readonly overheadTokens: number;
  /** `TokenCounter.countMessages`: what the context costs, overhead included. */
  readonly totalTokens: number;
  readonly largestToolResult?: LargestToolResult;
}

/**
 * Counts one conversation: messages by role, tokens by part kind (each part's `partText`, the
 * text `TokenCounter` counts), and the total with overheads, so the kinds plus overhead add up.
 */
export function computeConversationStats(conversationId: string, messages: readonly Message[], tokens: TokenCounter): ConversationStats {
  const messagesByRole: Record<MessageRole, number> = { system: 0, user: 0, assistant: 0, tool: 0 };
  const byKind = emptyKinds();
  let largestToolResult: LargestToolResult | undefined;
  for (const message of messages) {
    messagesByRole[message.role] += 1;
    for (const part of message.parts) {
      const kind = kindOf(message.role, part);
      const partTokens = tokens.countText(partText(part));
      byKind[kind] = { parts: byKind[kind].parts + 1, tokens: byKind[kind].tokens + partTokens };
      if (part.type === 'tool-result' && (!largestToolResult || partTokens > largestToolResult.tokens)) {
        largestToolResult = {
          conversationId,
          messageId: message.id,
          callId: part.callId,
          ...(part.name ? { name: part.name } : {}),
          tokens: partTokens,
        };
      }
    }
  }
  const totalTokens = tokens.countMessages(messages);
  const kindSum = CONTENT_KINDS.reduce((sum, kind) => sum + byKind[kind].tokens, 0);
  return {
    messages: messages.length,
    messagesByRole,
    byKind,
    overheadTokens: totalTokens - kindSum,
    totalTokens,
    ...(largestToolResult ? { largestToolResult } : {}),
  };
}

/** Adds up the stats of several conversations (tau-bench files hold hundreds). */
export function sumConversationStats(all: readonly ConversationStats[]): ConversationStats {
  const messagesByRole: Record<MessageRole, number> = { system: 0, user: 0, assistant: 0, tool: 0 };
  const byKind = emptyKinds();
  let largestToolResult: LargestToolResult | undefined;
  let messages = 0;
  let overheadTokens = 0;
  let totalTokens = 0;
  for (const stats of all) {
    messages += stats.messages;
    overheadTokens += stats.overheadTokens;
    totalTokens += stats.totalTokens;
    for (const role of Object.keys(messagesByRole) as MessageRole[]) messagesByRole[role] += stats.messagesByRole[role];
    for (const kind of CONTENT_KINDS) {
      byKind[kind] = { parts: byKind[kind].parts + stats.byKind[kind].parts, tokens: byKind[kind].tokens + stats.byKind[kind].tokens };
    }
    if (stats.largestToolResult && (!largestToolResult || stats.largestToolResult.tokens > largestToolResult.tokens)) {
      largestToolResult = stats.largestToolResult;
    }
  }
  return { messages, messagesByRole, byKind, overheadTokens, totalTokens, ...(largestToolResult ? { largestToolResult } : {}) };
}

function emptyKinds(): Record<ContentKind, KindTotals> {
  const kinds = {} as Record<ContentKind, KindTotals>;
  for (const kind of CONTENT_KINDS) kinds[kind] = { parts: 0, tokens: 0 };
  return kinds;
}

function kindOf(role: MessageRole, part: MessagePart): ContentKind {
  switch (part.type) {
    case 'reasoning':
      return 'reasoning';
    case 'tool-call':
      return 'toolCalls';
    case 'tool-result':
      return 'toolResults';
    case 'file':
      return 'files';
    case 'text':
      // Text in a tool message is tool output in every format that has one.
      if (role === 'tool') return 'toolResults';
      if (role === 'assistant') return 'assistantText';
      return role;
  }
}
