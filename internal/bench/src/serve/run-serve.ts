import { describeMachine } from '../machine.js';
import type { ChatClientKind } from './chat-client.js';
import { describeClient } from './chat-client.js';
import { measureLatency, warmUp } from './latency-workload.js';
import { SERVE_MODEL, SERVE_PIPELINE, SERVE_REPLY_LIMIT, SERVE_WINDOW, startServeRig } from './serve-rig.js';
import type { ServeMode } from './serve-mode.js';
import type { ServeReport } from './serve-report.js';
import { measureThroughput } from './throughput-workload.js';

/** Both official clients, each with and without streaming, in the conversations that fit. */
export const SHORT_CLIENTS: readonly ChatClientKind[] = [
  { api: 'openai', stream: false },
  { api: 'openai', stream: true },
  { api: 'ollama', stream: false },
  { api: 'ollama', stream: true },
];
/** The openai client in the long conversations (the proxy's work is the same for either API). */
export const LONG_CLIENTS: readonly ChatClientKind[] = [
  { api: 'openai', stream: false },
  { api: 'openai', stream: true },
];

/**
 * The serve section: what `ollm serve` adds to a request (the same requests sent straight to the
 * fake model server and through the proxy, interleaved), and requests per second with several
 * conversations in flight, with the memory and the file store. Client, proxy and fake server
 * all run in this process.
 */
export async function runServeWorkloads(mode: ServeMode, progress: (text: string) => void): Promise<ServeReport> {
  const started = process.hrtime.bigint();
  const machine = describeMachine();
  const rig = await startServeRig();
  try {
    progress(`serve: warm-up, ${mode.warmUpTurns} turns per client`);
    await warmUp(rig, SHORT_CLIENTS, mode.warmUpTurns);
    progress(`serve: added latency, ${mode.shortConversations} conversations of ${mode.shortTurns} turns x ${SHORT_CLIENTS.map(describeClient).join(' / ')}`);
    const short = await measureLatency(rig, { clients: SHORT_CLIENTS, turns: mode.shortTurns, conversations: mode.shortConversations });
    progress(
      `serve: added latency, ${mode.longConversations} conversations growing to ${mode.longTurns} turns x ${LONG_CLIENTS.map(describeClient).join(' / ')}`,
    );
    const long = await measureLatency(rig, {
      clients: LONG_CLIENTS,
      turns: mode.longTurns,
      conversations: mode.longConversations,
      onConversation: (done, total) => progress(`serve long conversations ${done}/${total}`),
    });
    progress(
      `serve: ${mode.concurrency} conversations at once, ${mode.throughputTurns} turns each, ${mode.throughputRounds} round${mode.throughputRounds === 1 ? '' : 's'} (direct, memory store, file store)`,
    );
    const cases = await measureThroughput(rig, {
      concurrency: mode.concurrency,
      turns: mode.throughputTurns,
      rounds: mode.throughputRounds,
      warmUpTurns: mode.throughputWarmUpTurns,
    });
    return {
      date: new Date().toISOString(),
      durationSeconds: Number(process.hrtime.bigint() - started) / 1e9,
      machine,
      model: SERVE_MODEL.name,
      window: SERVE_WINDOW,
      replyLimit: SERVE_REPLY_LIMIT,
      pipeline: SERVE_PIPELINE,
      warmUpTurns: mode.warmUpTurns,
      short,
      long,
      throughput: { concurrency: mode.concurrency, turns: mode.throughputTurns, rounds: mode.throughputRounds, warmUpTurns: mode.throughputWarmUpTurns, cases },
    };
  } finally {
    await rig.close();
  }
}
