import { parsePipeline, RECOVERY_FOLDER } from '@ollm/core';
import { join } from 'node:path';
import { formatInteger, formatShare } from '../output/format-number.js';
import { startSpinner } from '../output/progress-spinner.js';
import { renderTable } from '../output/render-table.js';
import { budgetBreakdown } from './budget-breakdown.js';
import { describeRemoved } from './describe-compaction.js';
import type { SlashCommand } from './slash-command.js';
import { plural } from '../output/plural.js';

/** gptme's names for the two ways to compact, kept as deprecated aliases. */
const DEPRECATED_COMPACT_NAMES: Readonly<Record<string, string>> = { auto: 'trim', resume: 'summarize' };
/** Below this saving, a rule-based /compact points to the model-based restart. */
const SMALL_SAVING = 0.1;

export const compactCommand: SlashCommand = {
  name: 'compact',
  usage: '[trim|summarize|PROVIDER|A,B]',
  summary: 'compact now (default trim); prints tokens before -> after and what was removed',
  async run(session, argument) {
    const typed = argument.length > 0 ? argument.replace(/\s*,\s*/g, ',') : 'trim';
    const alias = DEPRECATED_COMPACT_NAMES[typed.toLowerCase()];
    if (alias) session.warn(`/compact ${typed} is deprecated: it runs /compact ${alias}; type that instead`);
    const name = alias ?? typed;
    const spinner = startSpinner(session.options.io, `compacting with ${name}`);
    let outcome;
    try {
      // The compressed event prints `compacted with NAME: before -> after tokens`.
      outcome = await session.manager.compact(name);
    } finally {
      spinner.stop();
    }
    const { tokensBefore, tokensAfter } = outcome.result.stats;
    const saving = tokensBefore === 0 ? 0 : (tokensBefore - tokensAfter) / tokensBefore;
    const offerSummarize = saving < SMALL_SAVING && !parsePipeline(name).names.includes('summarize');
    const restart = '/compact summarize restarts it from a summary the model writes';
    if (tokensAfter >= tokensBefore) {
      session.print(
        `nothing to compact with ${name}: the context stays at ${formatInteger(session.manager.budget().totalTokens)} tokens${offerSummarize ? `; ${restart}` : ''}.`,
      );
      return;
    }
    session.print(describeRemoved(outcome.result.removed, join(session.options.home, RECOVERY_FOLDER)));
    for (const limitation of outcome.result.limitations) session.print(session.options.colors.dim(`note: ${limitation}`));
    if (offerSummarize) session.print(`${name} saved ${formatShare(tokensBefore - tokensAfter, tokensBefore)} of the context; ${restart}.`);
  },
};

export const providersCommand: SlashCommand = {
  name: 'providers',
  usage: '',
  summary: 'the context providers found, and which ones compact automatically',
  run(session) {
    const automatic = new Set(parsePipeline(session.options.autoPipeline).names);
    const chosen = session.options.provider === 'none' ? [] : parsePipeline(session.options.provider).names;
    const rows = session.options.registry.list().map(({ provider, source }) => {
      const roles = [automatic.has(provider.name) ? 'auto' : '', chosen.includes(provider.name) ? '--provider' : ''].filter(Boolean);
      return [provider.name, roles.join(', '), source ?? '', provider.description ?? ''];
    });
    if (rows.length === 0) {
      session.print('No context providers (--no-plugins, or none installed): the window guard keeps the context inside the window, oldest turns first.');
      return;
    }
    session.print(renderTable([['name', 'role', 'package', 'description'], ...rows]));
    session.print(`Automatic compaction: ${session.options.autoPipeline} (rule-based stages first, the model-based one only when they are not enough).`);
  },
};

export const statusCommand: SlashCommand = {
  name: 'status',
  usage: '',
  summary: 'the budget: system prompt, goal, folded user quotes, checkpoints, user, assistant, tool',
  async run(session) {
    const { manager, options } = session;
    const budget = manager.budget();
    const parts = await budgetBreakdown(manager);
    const rows = Object.entries(parts).map(([part, tokens]) => [part, formatInteger(tokens), formatShare(tokens, budget.contextSize)]);
    session.print(
      `Session ${options.sessionId} · ${options.modelName} at ${options.endpoint} · window ${formatInteger(budget.contextSize)} tokens, ${formatInteger(budget.replyReserve)} kept for the reply: requests hold at most ${formatInteger(budget.requestLimit)}`,
    );
    session.print(
      renderTable(
        [['part', 'tokens', 'of window'], ...rows, ['total', formatInteger(budget.totalTokens), formatShare(budget.totalTokens, budget.contextSize)]],
        { indent: '  ', align: ['left', 'right', 'right'] },
      ),
    );
    const reliability = manager.reliability();
    session.print(
      `Compresses when the conversation reaches ${formatInteger(budget.trigger)} tokens (threshold of ${formatInteger(budget.available)} available); now ${formatInteger(budget.conversationTokens)}.`,
    );
    const pipeline = !options.automaticCompaction ? 'off (compaction.enabled is false)' : options.autoPipeline || 'none (no providers; the window guard only)';
    session.print(`Automatic pipeline: ${pipeline}; ${plural(manager.compactionCount, 'compaction')} so far.`);
    session.print(
      `Reliability: ${reliability.level} (${Math.round(reliability.score * 100)}%). Token counts x${manager.calibrationRatio.toFixed(2)} from the server's reported prompt sizes.`,
    );
    session.print(`Messages: ${manager.activeMessages.length} in the context, ${session.recordedMessages().length} recorded in the session (/history).`);
    session.print(session.statusLine());
  },
};
