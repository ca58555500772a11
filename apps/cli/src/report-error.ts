import { InvalidArgumentError, InvalidTranscriptError, ModelUnavailableError, NoModelError, NoSuchProviderError, redactSecrets } from '@ollm/core';
import { InvalidConfigError, SessionInUseError } from '@ollm/runtime';
import { NoReplyError } from './chat/no-reply-error.js';
import { displayPath, ExitCode, failureReport, reportBasicError, type ErrorReport } from './exit-codes.js';

/**
 * The one place that maps errors to exit codes and one-line messages: the basic ones
 * (exit-codes.ts), then ollm's typed errors. Command modules bring it with them (`defineCommand`),
 * so the dispatcher reports a command's error without loading `@ollm/*` itself. The message is
 * redacted (core's `redactSecrets`): no registered secret and no URL credentials in it, whatever
 * the error quoted (a server's reply, a URL, the user's input).
 */
export async function reportError(error: unknown, cwd: string): Promise<ErrorReport> {
  const report = mapError(error, cwd);
  return { ...report, message: redactSecrets(report.message) };
}

function mapError(error: unknown, cwd: string): ErrorReport {
  const basic = reportBasicError(error, cwd);
  if (basic) return basic;
  if (InvalidTranscriptError.isInstance(error)) {
    return { exitCode: ExitCode.badInput, message: `${displayPath(error.file, cwd)}: ${error.position}: ${error.reason}` };
  }
  if (NoSuchProviderError.isInstance(error) || InvalidArgumentError.isInstance(error) || InvalidConfigError.isInstance(error)) {
    return { exitCode: ExitCode.badInput, message: error.message };
  }
  // Another chat holds the session: the user asked for something that cannot run now.
  if (SessionInUseError.isInstance(error)) {
    return { exitCode: ExitCode.badInput, message: error.message };
  }
  if (NoModelError.isInstance(error)) {
    return {
      exitCode: ExitCode.badInput,
      message: `${error.message} (ollm compact: --model NAME; --host URL for another Ollama, --api openai --base-url URL for other servers)`,
    };
  }
  if (ModelUnavailableError.isInstance(error)) {
    return { exitCode: ExitCode.modelUnreachable, message: error.message };
  }
  // A chat whose every message failed: 3 when the server was never reachable, else 4.
  if (NoReplyError.isInstance(error)) {
    return { exitCode: error.unreachable ? ExitCode.modelUnreachable : ExitCode.noReply, message: error.message };
  }
  return failureReport(error);
}
