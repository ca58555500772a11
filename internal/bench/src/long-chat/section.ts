import { formatPercent } from '../markdown-table.js';
import { renderLongChat } from './long-chat.js';
import type { LongChatReport } from './measure.js';

export const LONG_CHAT_TITLE = 'Long chats (LoCoMo, benchmarks only)';

function list(texts: readonly string[]): string {
  return texts.length <= 1 ? texts.join('') : `${texts.slice(0, -1).join(', ')} and ${texts[texts.length - 1]}`;
}

/** `52%`, or `51–52%` when the chats differ. */
function systemAndUserShare(report: LongChatReport): string {
  const shares = report.fixtures.filter((chat) => chat.tokens > 0).map((chat) => chat.systemAndUserTokens / chat.tokens);
  if (shares.length === 0) return '';
  const lowest = formatPercent(Math.min(...shares));
  const highest = formatPercent(Math.max(...shares));
  return lowest === highest ? lowest : `${lowest.replace('%', '')}–${highest}`;
}

/** Strategies over their budget in every run (named, with whether they returned every chat unchanged). */
function alwaysOver(report: LongChatReport): string | undefined {
  const names = report.strategies.filter((name) => {
    const runs = report.runs.filter((run) => run.strategy === name);
    return runs.length > 0 && runs.every((run) => !run.underBudget);
  });
  if (names.length === 0) return undefined;
  const unchanged = names.filter((name) =>
    report.runs.filter((run) => run.strategy === name).every((run) => run.tokensAfter === run.tokensBefore && run.messagesAfter === run.messagesBefore),
  );
  const text = list(names.map((name) => `\`${name}\``));
  if (unchanged.length === names.length)
    return `Here ${text} ${names.length === 1 ? 'is' : 'are'} over budget in every run: ${names.length === 1 ? 'it returns' : 'they return'} each chat unchanged.`;
  return `Here ${text} ${names.length === 1 ? 'is' : 'are'} over budget in every run.`;
}

/** The explanation above the table (its figures come from `report`). */
export function longChatExplanation(report: LongChatReport): string {
  const share = systemAndUserShare(report);
  const over = alwaysOver(report);
  return [
    `Each LoCoMo sample is one long chat between two people over many sessions: speaker A's turns are user messages, speaker B's assistant messages, so user messages hold half the tokens${share === '' ? '' : ` (${share} with the system message here)`} — ` +
      "which ollm's providers leave as they are, except fold under its [long-chat rule](plugins/fold.md). " +
      `The whole chat, every session, is compacted to ${list(report.budgets.map((budget) => formatPercent(budget)))} of its own o200k tokens by each strategy: ` +
      'ollm pipelines through `compactWith`; `langchain` is `trimMessages` ("last", startOn human/ai); `ai-sdk` is `pruneMessages` driven to the budget; `recency` keeps the newest turns that fit. No model is called. ' +
      "For each question of categories 1–4 (5 is adversarial: no answer) the compacted text is searched for the question's evidence turns, verbatim (whitespace collapsed), and for its answer (a normalised substring; only answers the full chat holds are counted). " +
      'Only under-budget rows are comparable (the chat unchanged scores 100%).' +
      (over === undefined ? '' : ` ${over}`) +
      ' The data is LoCoMo (Maharana et al., ACL 2024), licensed CC BY-NC 4.0: it is read from `../shared/fixtures/locomo-sample` beside the repository and never copied into it; only counts appear here, and without that folder the section is skipped.',
  ].join('\n');
}

/** The section of docs/benchmarks.md: the explanation and renderLongChat's tables, or the reason it was skipped. */
export function longChatSection(number: number, report: LongChatReport | { readonly skipped: string }): string[] {
  const lines = [`## ${number}. ${LONG_CHAT_TITLE}`, ''];
  if ('skipped' in report) return [...lines, `Skipped: ${report.skipped}`, ''];
  return [...lines, longChatExplanation(report), '', renderLongChat(report).trimEnd(), ''];
}
