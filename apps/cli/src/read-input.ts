import { resolve } from 'node:path';
import { InvalidArgumentError } from '@ollm/core';
import { parseTranscriptBytes, readTranscript, TRANSCRIPT_FORMATS, type Conversation, type Transcript, type TranscriptFormat } from '@ollm/transcripts';
import type { CliIo } from './cli-io.js';
import { readStandardInput, STANDARD_STREAM, STANDARD_INPUT_NAME } from './read-standard-input.js';

export interface ReadInputOptions {
  /** `-` reads stdin (`io.stdin`, else `process.stdin`), named `<stdin>` in errors; without it `-` is a file name. */
  readonly standardInput?: boolean;
}

/** Reads a transcript named on the command line; the format is detected unless `--format` names it. */
export async function readInputTranscript(io: CliIo, file: string, format: string | undefined, read: ReadInputOptions = {}): Promise<Transcript> {
  if (format !== undefined && !(TRANSCRIPT_FORMATS as readonly string[]).includes(format)) {
    throw new InvalidArgumentError({
      argument: 'format',
      message: `Unknown format "${format}". Formats: ${TRANSCRIPT_FORMATS.join(', ')}.`,
    });
  }
  const options = format === undefined ? {} : { format: format as TranscriptFormat };
  if (read.standardInput && file === STANDARD_STREAM) {
    const bytes = await readStandardInput(io.stdin ?? process.stdin);
    return parseTranscriptBytes(bytes, { file: STANDARD_INPUT_NAME, ...options });
  }
  const path = resolve(io.cwd, file);
  try {
    return await readTranscript(path, options);
  } catch (error) {
    // Node omits the path from some errors (reading a folder); the one-line message needs it.
    const systemError = error as NodeJS.ErrnoException;
    if (systemError instanceof Error && typeof systemError.code === 'string' && systemError.path === undefined) systemError.path = path;
    throw error;
  }
}

export interface SelectedConversation {
  readonly index: number;
  readonly conversation: Conversation;
}

/** Every conversation of the transcript, or only the one `--conversation ID` names. */
export function selectConversations(transcript: Transcript, id: string | undefined): SelectedConversation[] {
  const all = transcript.conversations.map((conversation, index) => ({ index, conversation }));
  if (id === undefined) return all;
  const match = all.filter((entry) => entry.conversation.id === id);
  if (match.length > 0) return match;
  const shown = all.slice(0, 5).map((entry) => entry.conversation.id);
  const more = all.length > shown.length ? `, ... (${all.length} in all)` : '';
  throw new InvalidArgumentError({
    argument: 'conversation',
    message: `No conversation "${id}" in ${transcript.file}. Conversations: ${shown.join(', ')}${more}.`,
  });
}
