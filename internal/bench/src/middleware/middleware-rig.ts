import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeModelServer, type FakeModel, type FakeModelServer } from '@ollm/fake-model-server';
import { AgentRun } from './agent-run.js';

/** The model every loop talks to: a 4,096-token window, which the fake server enforces. */
export const MIDDLEWARE_MODEL: FakeModel = { name: 'small:4k', contextLength: 4096 };
export const MIDDLEWARE_WINDOW = 4096;
/** The reply limit of every call (`maxOutputTokens` / `maxTokens`): the server counts it against the window. */
export const MIDDLEWARE_REPLY_LIMIT = 256;
export const MIDDLEWARE_PIPELINE = 'fold';

/** One chat request the fake server received. */
export interface ChatRecord {
  readonly promptTokens: number;
  readonly maxTokens: number;
  /** Refused with a 400 (`context_length_exceeded`): over the window. */
  readonly refused: boolean;
}

export interface MiddlewareRig {
  readonly fake: FakeModelServer;
  /** The OpenAI-compatible base URL both frameworks' clients are pointed at. */
  readonly baseUrl: string;
  /** Where the middlewares save what they remove (a throwaway folder). */
  readonly logdir: string;
  /** Starts the next run: the model asks for `steps` files, one a step, then answers. */
  begin(steps: number): AgentRun;
  /** Reads and forgets the fake server's record of chat requests. */
  takeChats(): Promise<ChatRecord[]>;
  close(): Promise<void>;
}

/**
 * The fake model server (window enforced, as vLLM and OpenAI refuse an oversized prompt) scripted
 * as an agent's model: while the current run's results are missing it calls `read_file`, then it
 * answers. Clients, middlewares and server share this process.
 */
export async function startMiddlewareRig(): Promise<MiddlewareRig> {
  let current: AgentRun | undefined;
  let runs = 0;
  const fake = await startFakeModelServer({
    models: [MIDDLEWARE_MODEL],
    enforceWindow: true,
    toolCalls: (request) => {
      const call = request.toolNames?.includes('read_file') ? current?.nextCall() : undefined;
      return call ? [call] : undefined;
    },
    reply: () => current?.answer(),
  });
  const logdir = mkdtempSync(join(tmpdir(), 'ollm-bench-middleware-'));
  return {
    fake,
    baseUrl: `${fake.url}/v1`,
    logdir,
    begin(steps) {
      runs += 1;
      current = new AgentRun(runs, steps);
      return current;
    },
    async takeChats() {
      const chats = fake.requests
        .filter((request) => request.path === '/v1/chat/completions')
        .map((request) => ({ promptTokens: request.promptTokens, maxTokens: request.maxTokens ?? 0, refused: request.responseBody === undefined }));
      await fake.reset();
      return chats;
    },
    async close() {
      await fake.close();
      rmSync(logdir, { recursive: true, force: true });
    },
  };
}
