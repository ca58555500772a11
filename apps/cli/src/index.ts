export type { CliIo, OutputStream } from './cli-io.js';
export type { RunCliOptions } from './run-cli.js';
export { runCli } from './run-cli.js';
export type { ErrorReport } from './exit-codes.js';
export { ExitCode } from './exit-codes.js';
export { reportError } from './report-error.js';
