import type { Command } from 'commander';
import { TRANSCRIPT_FORMATS } from '@ollm/transcripts';
import { computeSourceDigest } from '@ollm/core';
import type { CommandContext } from '../command-context.js';
import { defineCommand } from './define-command.js';
import { readInputTranscript, selectConversations } from '../read-input.js';

interface DigestOptions {
  readonly conversation?: string;
  readonly format?: string;
  readonly json?: boolean;
}

/** `ollm digest`: named and described by the dispatcher (run-cli.ts). */
export const digestCommand = defineCommand((command: Command, context: CommandContext) => {
  command
    .argument('<file>', 'transcript file (format detected), or - for stdin')
    .option('--conversation <id>', 'only this conversation of a multi-conversation file')
    .option('--format <format>', `read as this format instead of detecting it (${TRANSCRIPT_FORMATS.join(', ')})`)
    .option('--json', 'one JSON array: { file, conversation, digest, messages } per conversation')
    .addHelpText(
      'after',
      `
The digest ignores ids and format details, so the same messages give the same digest in any
format. It is the sourceDigest of every compaction of the file.
Files with several conversations (tau-bench) print one line each, like sha256sum:
  <digest>  <file>#<conversation id>

Examples:
  $ ollm digest session.traj.json
  $ ollm digest gpt-4o-airline.json --conversation 12
  $ cat session.traj.json | ollm digest - --json`,
    )
    .action(async (file: string, options: DigestOptions) => {
      const { io } = context;
      const transcript = await readInputTranscript(io, file, options.format, { standardInput: true });
      const selected = selectConversations(transcript, options.conversation);
      if (options.json) {
        const entries = selected.map(({ conversation }) => ({
          file,
          conversation: conversation.id,
          digest: computeSourceDigest(conversation.messages),
          messages: conversation.messages.length,
        }));
        io.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
        return;
      }
      const multiple = transcript.conversations.length > 1;
      const lines = selected.map(({ conversation }) => {
        const digest = computeSourceDigest(conversation.messages);
        return multiple ? `${digest}  ${file}#${conversation.id}` : `${digest}  ${file}`;
      });
      io.stdout.write(`${lines.join('\n')}\n`);
    });
});
