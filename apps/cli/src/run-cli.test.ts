import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS, commandToRun, type CommandName } from './run-cli.js';

const source = fileURLToPath(new URL('.', import.meta.url));

describe('the command dispatcher', () => {
  it.each([
    [[], 'chat'],
    [['--help'], undefined],
    [['-h'], undefined],
    [['--version'], undefined],
    [['-V'], undefined],
    [['--debug', '--no-plugins', '--help'], undefined],
    [['help'], undefined],
    [['help', 'compact'], 'compact'],
    [['help', 'nonesuch'], undefined],
    [['compact', 'x.json', '--help'], 'compact'],
    [['--no-plugins', 'providers'], 'providers'],
    [['sessions', 'list'], 'sessions'],
    [['--model', 'compact'], 'chat'],
    [['--context-size', '8192'], 'chat'],
    [['compcat'], 'chat'],
  ] as [string[], CommandName | undefined][])('runs %j as %s', (argv, expected) => {
    expect(commandToRun(argv)).toBe(expected);
  });

  it.each(Object.keys(COMMANDS) as CommandName[])('lists %s in the root help as its module defines it', async (name) => {
    const entry = COMMANDS[name];
    const command = new Command('ollm').command(name).description(entry.description);
    (await entry.load()).configure(command, { io: { stdout: process.stdout, stderr: process.stderr, cwd: source, env: {}, isTTY: false } });
    expect(new Help().subcommandTerm(command)).toBe(entry.term);
  });

  it('is the only place that imports lazily, besides the model clients of compact: command modules import @ollm/* at the top', () => {
    const files = (readdirSync(source, { recursive: true }) as string[]).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
    const lazy = files.filter((file) => /\bimport\(/.test(readFileSync(join(source, file), 'utf8'))).map((file) => relative(source, join(source, file)));
    // compact loads the openai and ollama packages only with --model (most compactions use none).
    expect(lazy.sort()).toEqual([join('commands', 'compact-command.ts'), 'run-cli.ts']);
    expect(readFileSync(join(source, 'commands', 'compact-command.ts'), 'utf8').match(/\bimport\(([^)]*)\)/g)).toEqual([
      "import('../model/create-language-model.js')",
    ]);
    const dispatcher = readFileSync(join(source, 'run-cli.ts'), 'utf8');
    // One import per command, each in the command table.
    expect(dispatcher.match(/\bimport\(/g)).toHaveLength(Object.keys(COMMANDS).length);
  });
});
