import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** A redis-server of its own for a test file: loopback only, nothing saved to disk. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** Ends the server and removes its working folder; calling it again does nothing. */
  stop(): Promise<void>;
}

/** Where Debian puts it (`apt-get install redis-server`), for a PATH that lacks /usr/bin. */
const DEBIAN_BINARY = '/usr/bin/redis-server';
const START_ATTEMPTS = 5;
const PING_ATTEMPTS = 400;
const PING_INTERVAL_MS = 25;

/** The redis-server binary on PATH, else Debian's; undefined when there is none. */
export function redisServerBinary(): string | undefined {
  const folders = (process.env['PATH'] ?? '').split(delimiter).filter((folder) => folder.length > 0);
  for (const candidate of [...folders.map((folder) => join(folder, 'redis-server')), DEBIAN_BINARY]) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here: try the next folder.
    }
  }
  return undefined;
}

/** Whether a redis-server can be started here (tests that need one skip without it). */
export function redisServerAvailable(): boolean {
  return redisServerBinary() !== undefined;
}

/**
 * Starts a redis-server on a free loopback port and resolves once it answers PING. The port is
 * picked by listening on port 0 and closing; another process may take it before redis-server
 * binds, so a start that fails with "Address already in use" is tried again on a new port.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const binary = redisServerBinary();
  if (binary === undefined) throw new Error('redis-server is not installed (apt-get install redis-server)');
  let lastOutput = '';
  for (let attempt = 0; attempt < START_ATTEMPTS; attempt += 1) {
    const port = await freeLoopbackPort();
    const folder = mkdtempSync(join(tmpdir(), 'ollm-redis-'));
    const child = spawn(
      binary,
      ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', folder, '--loglevel', 'warning'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.once('error', (error) => (output += `${error.message}\n`));
    // A test run that dies without stopping it must not leave it behind.
    const killOnExit = (): void => void child.kill('SIGKILL');
    process.once('exit', killOnExit);
    const stop = async (): Promise<void> => {
      process.removeListener('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const forced = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(forced);
      }
      rmSync(folder, { recursive: true, force: true });
    };
    if (await answersPing(port, child)) {
      let stopped: Promise<void> | undefined;
      return { url: `redis://127.0.0.1:${port}`, port, stop: () => (stopped ??= stop()) };
    }
    await stop();
    lastOutput = output;
    if (!/address already in use/i.test(output)) break;
  }
  throw new Error(`redis-server did not start: ${lastOutput.trim() || 'no output'}`);
}

/** A port nothing listens on right now, on 127.0.0.1. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls with PING until it answers PONG (true) or the process ends (false). */
async function answersPing(port: number, child: ChildProcess): Promise<boolean> {
  for (let attempt = 0; attempt < PING_ATTEMPTS; attempt += 1) {
    if (child.exitCode !== null || child.signalCode !== null) return false;
    if (await ping(port)) return true;
    await new Promise((resolve) => setTimeout(resolve, PING_INTERVAL_MS));
  }
  return false;
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    const finish = (answered: boolean): void => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(1_000, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('utf8');
      if (reply.includes('\r\n')) finish(reply.startsWith('+PONG'));
    });
  });
}
