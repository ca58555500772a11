import { createRequire } from 'node:module';
import type * as CommanderModule from 'commander';

// commander is CommonJS. Imported as ESM, node loads its ESM wrapper and scans index.js for the
// names it exports; required, it is one CommonJS load: ~6 ms of every start (`ollm --help`
// included). The same module instance either way (`instanceof CommanderError` holds).
const commander = createRequire(import.meta.url)('commander') as typeof CommanderModule;

export const Command = commander.Command;
export type Command = CommanderModule.Command;
export const CommanderError = commander.CommanderError;
export type CommanderError = CommanderModule.CommanderError;
export const Help = commander.Help;
