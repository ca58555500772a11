import type { ChatSession } from './chat-session.js';

/** What a slash command returns: `quit` ends the chat. */
export type SlashCommandOutcome = 'quit' | void;

export interface SlashCommand {
  /** Without the slash: `compact`. */
  readonly name: string;
  /** Arguments as shown by /help: `[trim|summarize|PROVIDER]`. */
  readonly usage: string;
  readonly summary: string;
  run(session: ChatSession, argument: string): Promise<SlashCommandOutcome> | SlashCommandOutcome;
}
