/**
 * Ends the process with `code` once its output is written. When nothing but the standard streams
 * is left open (no server, child process, timer or file read or write of a command's), it exits
 * at once: a natural exit would first wait for V8's background work (optimising compiles of the
 * code that just ran) and tear the heap down, ~10 ms of every command. Otherwise it only sets
 * `process.exitCode` and lets what is pending finish.
 */
export async function exitWhenDone(code: number): Promise<void> {
  process.exitCode = code;
  // A write's callback runs once everything written before it has gone to the OS (a pipe whose
  // reader is slow included), or with the error of a stream that was closed.
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  if (nothingPending(process.getActiveResourcesInfo())) process.exit(code);
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) resolve();
    else stream.write('', () => resolve());
  });
}

/**
 * What may be open when a command is done: the standard streams (pipes or terminals; files are
 * written synchronously and hold nothing open), and the closing of a file handle whose reads or
 * writes have all completed (module loading leaves one).
 */
const FINISHED_RESOURCES = new Set(['PipeWrap', 'TTYWrap', 'CloseReq']);

/** Whether `resources` (`process.getActiveResourcesInfo()`) hold nothing a command still waits on. */
export function nothingPending(resources: readonly string[]): boolean {
  return resources.every((resource) => FINISHED_RESOURCES.has(resource));
}
