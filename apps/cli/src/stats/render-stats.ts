import type { MessageRole } from '@ollm/core';
import { formatInteger, formatShare } from '../output/format-number.js';
import { renderTable } from '../output/render-table.js';
import { CONTENT_KINDS, type ContentKind, type ConversationStats } from './conversation-stats.js';

const kindLabels: Record<ContentKind, string> = {
  system: 'system',
  user: 'user',
  assistantText: 'assistant text',
  reasoning: 'reasoning',
  toolCalls: 'tool calls',
  toolResults: 'tool results',
  files: 'files',
};

/** The breakdown table of one conversation or, with `summed`, of a sum of them. */
export function renderBreakdown(stats: ConversationStats, summed = false): string {
  const roles = (Object.keys(stats.messagesByRole) as MessageRole[])
    .filter((role) => stats.messagesByRole[role] > 0)
    .map((role) => `${role} ${formatInteger(stats.messagesByRole[role])}`);
  const rows: string[][] = [['kind', 'parts', 'tokens', 'share']];
  for (const kind of CONTENT_KINDS) {
    const totals = stats.byKind[kind];
    if (totals.parts === 0 && kind === 'files') continue;
    rows.push([kindLabels[kind], formatInteger(totals.parts), formatInteger(totals.tokens), formatShare(totals.tokens, stats.totalTokens)]);
  }
  rows.push(['overhead', '', formatInteger(stats.overheadTokens), formatShare(stats.overheadTokens, stats.totalTokens)]);
  rows.push(['total', '', formatInteger(stats.totalTokens), formatShare(stats.totalTokens, stats.totalTokens)]);
  const lines = [
    `Messages: ${formatInteger(stats.messages)} (${roles.join(', ') || 'none'})`,
    '',
    renderTable(rows, { align: ['left', 'right', 'right', 'right'], indent: '  ' }),
  ];
  const largest = stats.largestToolResult;
  if (largest) {
    const name = largest.name ? `, ${largest.name}` : '';
    const where = summed ? `conversation ${largest.conversationId}, ` : '';
    lines.push('', `Largest tool result: ${formatInteger(largest.tokens)} tokens (${where}message ${largest.messageId}, call ${largest.callId}${name})`);
  }
  return lines.join('\n');
}

/** One row per conversation, for files that hold many. */
export function renderConversationTable(entries: readonly { id: string; stats: ConversationStats }[]): string {
  const rows = [['conversation', 'messages', 'tokens', 'tool results', 'largest result']];
  for (const { id, stats } of entries) {
    rows.push([
      id,
      formatInteger(stats.messages),
      formatInteger(stats.totalTokens),
      formatInteger(stats.byKind.toolResults.tokens),
      formatInteger(stats.largestToolResult?.tokens ?? 0),
    ]);
  }
  return renderTable(rows, { align: ['left', 'right', 'right', 'right', 'right'], indent: '  ' });
}

export function countingNote(encoding: string): string {
  return (
    `Tokens: ${encoding}. Each kind counts its parts' text alone; the total is TokenCounter.countMessages,\n` +
    'which adds 4 tokens per message and 3 per tool call (the overhead row, with author names).'
  );
}
