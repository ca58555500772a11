import { CommanderError } from 'commander';
import {
  InvalidArgumentError,
  InvalidProviderOutputError,
  InvalidTranscriptError,
  ModelUnavailableError,
  NoModelError,
  NoSuchProviderError,
  OllmError,
  ProviderExecutionError,
} from '@ollm/core';
import { InvalidConfigError } from '@ollm/runtime';
import { describe, expect, it } from 'vitest';
import { displayPath, ExitCode, oneLine } from './exit-codes.js';
import { reportError } from './report-error.js';

const cwd = '/work/project';

describe('reportError: the one mapping of errors to exit codes', () => {
  it.each([
    [
      'an unreadable transcript',
      new InvalidTranscriptError({ file: '/work/project/a.json', position: 'line 3, column 7', reason: 'Unexpected token' }),
      ExitCode.badInput,
    ],
    ['an unknown provider', new NoSuchProviderError({ providerName: 'x', available: ['trim'] }), ExitCode.badInput],
    ['a bad argument', new InvalidArgumentError({ argument: 'limit', message: 'bad limit' }), ExitCode.badInput],
    [
      'an invalid config value',
      new InvalidConfigError({ file: '/work/project/ollm.config.json', key: 'compression.limit', reason: 'must be a number' }),
      ExitCode.badInput,
    ],
    ['a usage error', new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'"), ExitCode.badInput],
    ['help shown', new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'), ExitCode.ok],
    [
      'an unreachable model',
      new ModelUnavailableError({ provider: 'ollama', baseURL: 'http://127.0.0.1:11434', hint: 'start it with `ollama serve`' }),
      ExitCode.modelUnreachable,
    ],
    ['a model-based provider without a model', new NoModelError({ needer: 'summarize', message: 'summarize needs a model' }), ExitCode.badInput],
    // Errors are told apart by class (isInstance), not by a code string another error could carry.
    ['an OllmError that only carries the code model-unavailable', new OllmError({ code: 'model-unavailable', message: 'down' }), ExitCode.failure],
    ['a broken integrity rule', new InvalidProviderOutputError({ provider: 'p', rule: 'order-kept', detail: 'moved' }), ExitCode.failure],
    ['a provider crash', new ProviderExecutionError({ provider: 'p', cause: new Error('boom') }), ExitCode.failure],
    ['anything else', new TypeError('unexpected'), ExitCode.failure],
    ['an abort', new DOMException('This operation was aborted', 'AbortError'), ExitCode.interrupted],
    ['an abort wrapped by the host', new ProviderExecutionError({ provider: 'p', cause: new DOMException('aborted', 'AbortError') }), ExitCode.interrupted],
  ])('maps %s', async (_name, error, code) => {
    expect((await reportError(error, cwd)).exitCode).toBe(code);
  });

  it('names a transcript relative to the working folder, with its position', async () => {
    const error = new InvalidTranscriptError({ file: '/work/project/fixtures/x.json', position: 'line 3, column 7', reason: 'Unexpected token' });
    expect((await reportError(error, cwd)).message).toBe('fixtures/x.json: line 3, column 7: Unexpected token');
  });

  it('turns a missing file into bad input naming the file', async () => {
    const error = Object.assign(new Error('ENOENT: no such file or directory'), { code: 'ENOENT', path: '/work/project/nope.json' });
    expect(await reportError(error, cwd)).toEqual({ exitCode: ExitCode.badInput, message: 'nope.json: no such file' });
  });

  it('folds commander suggestions onto the same line', async () => {
    const error = new CommanderError(1, 'commander.unknownCommand', "error: unknown command 'digst'\n(Did you mean digest?)");
    expect((await reportError(error, cwd)).message).toBe("unknown command 'digst' (did you mean digest?)");
  });

  it('keeps paths outside the working folder absolute, and one line is one line', () => {
    expect(displayPath('/elsewhere/a.json', cwd)).toBe('/elsewhere/a.json');
    expect(displayPath('relative.json', cwd)).toBe('relative.json');
    expect(oneLine('first\n  second\n')).toBe('first second');
  });
});
