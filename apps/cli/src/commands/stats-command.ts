import type { Command } from 'commander';
import { TRANSCRIPT_FORMATS } from '@ollm/transcripts';
import { InvalidArgumentError, TokenCounter, createTokenizer, type TokenEncoding } from '@ollm/core';
import type { CommandContext } from '../command-context.js';
import { readInputTranscript, selectConversations } from '../read-input.js';
import { computeConversationStats, sumConversationStats } from '../stats/conversation-stats.js';
import { countingNote, renderBreakdown, renderConversationTable } from '../stats/render-stats.js';
import { listCheckpoints, renderCheckpoints } from '../stats/checkpoint-list.js';
import { defineCommand } from './define-command.js';

interface StatsOptions {
  readonly json?: boolean;
  readonly encoding: string;
  readonly conversation?: string;
  readonly format?: string;
}

const encodings: readonly TokenEncoding[] = ['o200k_base', 'cl100k_base'];

/** `ollm stats`: named and described by the dispatcher (run-cli.ts). */
export const statsCommand = defineCommand((command: Command, context: CommandContext) => {
  command
    .argument('<file>', 'transcript file (format detected), or - for stdin')
    .option('--json', 'print the numbers as JSON')
    .option('--encoding <encoding>', `BPE encoding to count with (${encodings.join(', ')})`, 'o200k_base')
    .option('--conversation <id>', 'only this conversation of a multi-conversation file')
    .option('--format <format>', `read as this format instead of detecting it (${TRANSCRIPT_FORMATS.join(', ')})`)
    .addHelpText(
      'after',
      `
Each kind counts the text of its parts alone. The total is what the context costs
(TokenCounter.countMessages): the parts plus 4 tokens per message and 3 per tool call,
shown as the "overhead" row, then the checkpoints the file carries (goal-aware's summaries: level,
range, tokens now and of the turns summarised). Files with several conversations (tau-bench) show one row per
conversation and the breakdown summed over all of them.

Examples:
  $ ollm stats session.traj.json
  $ ollm stats gpt-4o-airline.json --json --encoding cl100k_base`,
    )
    .action(async (file: string, options: StatsOptions) => {
      const { io } = context;
      if (!(encodings as readonly string[]).includes(options.encoding)) {
        throw new InvalidArgumentError({
          argument: 'encoding',
          message: `Unknown encoding "${options.encoding}". Encodings: ${encodings.join(', ')}.`,
        });
      }
      const encoding = options.encoding as TokenEncoding;
      const transcript = await readInputTranscript(io, file, options.format, { standardInput: true });
      const selected = selectConversations(transcript, options.conversation);
      const tokens = new TokenCounter(createTokenizer(encoding));
      const entries = selected.map(({ conversation }) => ({
        id: conversation.id,
        stats: computeConversationStats(conversation.id, conversation.messages, tokens),
        checkpoints: listCheckpoints(conversation.messages, tokens),
      }));
      const total = sumConversationStats(entries.map((entry) => entry.stats));
      if (options.json) {
        const report = {
          file,
          format: transcript.format,
          encoding,
          countingNote: "byKind counts each part's text; totalTokens = countMessages (4 per message, 3 per tool call; overheadTokens is the difference)",
          conversations: entries.map(({ id, stats, checkpoints }) => ({ id, ...stats, checkpoints })),
          total,
        };
        io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        return;
      }
      const count = entries.length === 1 ? '1 conversation' : `${entries.length} conversations`;
      const sections = [`${file} (${transcript.format}, ${count})`];
      if (entries.length > 1) sections.push(renderConversationTable(entries), 'Summed over all conversations:');
      sections.push(renderBreakdown(total, entries.length > 1), countingNote(encoding));
      // Checkpoints are listed for a single conversation, or when any of several carries one.
      const withCheckpoints = entries.filter((entry) => entry.checkpoints.length > 0);
      if (entries.length === 1) sections.push(renderCheckpoints(entries[0]!.checkpoints));
      else for (const entry of withCheckpoints) sections.push(`${entry.id}: ${renderCheckpoints(entry.checkpoints)}`);
      io.stdout.write(`${sections.join('\n\n')}\n`);
    });
});
