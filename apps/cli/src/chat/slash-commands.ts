import { renderTable } from '../output/render-table.js';
import type { ChatSession } from './chat-session.js';
import { closestMatch } from './closest-match.js';
import { compactCommand, providersCommand, statusCommand } from './context-commands.js';
import { decisionCommand } from './decision-command.js';
import { goalCommand } from './goal-command.js';
import { exportCommand, historyCommand, sessionsCommand, snapshotCommand } from './record-commands.js';
import type { SlashCommand, SlashCommandOutcome } from './slash-command.js';

const helpCommand: SlashCommand = {
  name: 'help',
  usage: '',
  summary: 'this list',
  run(session) {
    const rows = slashCommands.map((command) => [`/${command.name}${command.usage ? ` ${command.usage}` : ''}`, command.summary]);
    session.print(renderTable(rows, { indent: '  ' }));
    session.print('Ctrl-C cancels a streaming reply; Ctrl-C twice at an empty prompt, Ctrl-D or /quit ends the chat.');
  },
};

const quitCommand: SlashCommand = {
  name: 'quit',
  usage: '',
  summary: 'end the chat (the session stays on disk; resume with --session ID)',
  run: () => 'quit',
};

export const slashCommands: readonly SlashCommand[] = [
  compactCommand,
  providersCommand,
  statusCommand,
  goalCommand,
  decisionCommand,
  snapshotCommand,
  historyCommand,
  exportCommand,
  sessionsCommand,
  helpCommand,
  quitCommand,
];

/** Aliases users type out of habit from other tools. */
const aliases: Readonly<Record<string, string>> = { exit: 'quit', '?': 'help' };

/** Runs `/name argument`; an unknown name gets the closest command as a suggestion. */
export async function runSlashCommand(session: ChatSession, line: string): Promise<SlashCommandOutcome> {
  const match = /^\/(\S*)\s*([\s\S]*)$/.exec(line.trim());
  const typed = (match?.[1] ?? '').toLowerCase();
  const name = aliases[typed] ?? typed;
  const command = slashCommands.find((candidate) => candidate.name === name);
  if (!command) {
    const suggestion = closestMatch(
      typed,
      slashCommands.map((candidate) => candidate.name),
    );
    session.warn(`unknown command /${typed}${suggestion ? ` (did you mean /${suggestion}?)` : ''}; /help lists the commands`);
    return;
  }
  try {
    return await command.run(session, (match?.[2] ?? '').trim());
  } catch (error) {
    await session.printError(error);
  }
}
