import { formatNumber } from '../markdown-table.js';
import { AGENT_COMPACT_TRIGGER, AGENT_SUMMARY_TOKENS } from './loop-strategies.js';
import type { PromptCacheReport } from './measure.js';
import { promptCacheTable } from './prompt-cache.js';

export const PROMPT_CACHE_TITLE = 'Prompt-cache reuse in a coding agent loop (ollm serve)';

/** The section of docs/benchmarks.md: what is measured, and the table, or the reason it was skipped. */
export function promptCacheSection(number: number, report: PromptCacheReport | { readonly skipped: string }): string[] {
  const lines = [`## ${number}. ${PROMPT_CACHE_TITLE}`, ''];
  if ('skipped' in report) return [...lines, `Skipped: ${report.skipped}`, ''];
  return [
    ...lines,
    `A local server (llama.cpp, Ollama) keeps the KV entries of the last prompt and processes only what follows the start a new prompt shares with it; a compaction that rewrites the middle of the prompt makes it process everything after that point again. ` +
      `One scripted coding task (a system prompt, four tools, a first user message holding a marker word, then ${report.steps} steps that each \`cat\` a ~2,400-token file) is run at each window three ways: ` +
      'the whole history each step with the server cutting the oldest messages over the window (Ollama); ' +
      `the agent's own compaction as Codex and opencode do it when told the window (a summary request once the prompt and a 15% reply would pass ${Math.round(AGENT_COMPACT_TRIGGER * 100)}% of the window, a ${formatNumber(AGENT_SUMMARY_TOKENS)}-token summary, the history rewritten to the system prompt, the task and the summary); ` +
      "and the whole history each step through `ollm serve --window W` at its defaults (fold, the real proxy and the official openai client, the agents' 32,000-token reply limit). " +
      "Each prompt is rendered as a chat template would (tools, then each message); the shared prefix of a request is the o200k tokens of its start that are the previous prompt's start byte for byte, as a share of the request. " +
      "Tokens processed again are each prompt's tokens less its shared start, summed over the run; the agent's summaries are also tokens the model had to write (a model writes a token far slower than it reads one). No model is called.",
    '',
    promptCacheTable(report),
    '',
  ];
}
