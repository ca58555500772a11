import type { RequestReport } from '@ollm/serve';
import { median, millisecondsSince } from '../measure.js';
import { interleavedOrder } from '../speed/interleaved-order.js';
import { agentTurn, openAIConversation } from './agent-conversation.js';
import { createChatClient } from './chat-client.js';
import { percentile } from './latency-statistics.js';
import { CHAT_ACTIONS, type ChatAction } from './latency-workload.js';
import { addUpstreamRecords, type ServeRig, type StoreKind, type UpstreamRecord } from './serve-rig.js';

/** Where the concurrent conversations send their requests. */
export type ThroughputTarget = 'direct' | StoreKind;
export const THROUGHPUT_TARGETS: readonly ThroughputTarget[] = ['direct', 'memory', 'files'];

export interface ThroughputCase {
  readonly target: ThroughputTarget;
  /** Requests per second of each round: all requests / the time from the first sent to the last answered. */
  readonly roundRequestsPerSecond: readonly number[];
  /** Median over rounds. */
  readonly requestsPerSecond: number;
  /** Each request's own time (sent to last byte read), with `concurrency` in flight. */
  readonly requestMedianMs: number;
  readonly requestP95Ms: number;
  /** What the proxy did to the requests (direct: none). */
  readonly actions: Partial<Record<ChatAction, number>>;
  readonly upstream: UpstreamRecord;
}

export interface ThroughputOptions {
  readonly concurrency: number;
  readonly turns: number;
  readonly rounds: number;
  /** Turns of an untimed round per target first. */
  readonly warmUpTurns: number;
}

interface RoundResult {
  readonly requestsPerSecond: number;
  readonly requestMs: number[];
  readonly reports: RequestReport[];
  readonly upstream: UpstreamRecord;
}

/**
 * `concurrency` conversations at once, each its own message list (openai client, not streamed),
 * growing turn by turn: each sends its next request as soon as its last was answered, so
 * `concurrency` requests are in flight at all times.
 */
async function runRound(rig: ServeRig, target: ThroughputTarget, concurrency: number, turns: number): Promise<RoundResult> {
  const url = target === 'direct' ? rig.fake.url : rig.proxies[target].url;
  const reports = target === 'direct' ? undefined : rig.proxies[target].reports;
  const reportedBefore = reports?.length ?? 0;
  const requestMs: number[] = [];
  const conversation = async (): Promise<void> => {
    const id = rig.newConversation();
    const client = createChatClient({ api: 'openai', stream: false }, url, rig.settings(target === 'direct' ? 'direct' : 'proxied'));
    const messages = openAIConversation(id);
    for (let turn = 0; turn < turns; turn += 1) {
      messages.addTurn(agentTurn(id, turn));
      const start = process.hrtime.bigint();
      const reply = await client(messages.messages);
      requestMs.push(millisecondsSince(start));
      messages.addReply(reply);
    }
  };
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, conversation));
  const seconds = millisecondsSince(start) / 1000;
  const expected = reportedBefore + concurrency * turns;
  // The last report may land just after its reply was read.
  for (let waited = 0; reports && reports.length < expected && waited < 10_000; waited += 1) await new Promise((resolve) => setImmediate(resolve));
  return {
    requestsPerSecond: (concurrency * turns) / seconds,
    requestMs,
    reports: reports ? reports.slice(reportedBefore) : [],
    upstream: await rig.takeRecord(),
  };
}

/** Requests per second with `concurrency` conversations in flight: direct, and through each store's proxy, interleaved by round. */
export async function measureThroughput(rig: ServeRig, options: ThroughputOptions): Promise<ThroughputCase[]> {
  for (const target of THROUGHPUT_TARGETS) await runRound(rig, target, options.concurrency, options.warmUpTurns);
  const rounds = THROUGHPUT_TARGETS.map((): RoundResult[] => []);
  for (let round = 0; round < options.rounds; round += 1) {
    for (const index of interleavedOrder(THROUGHPUT_TARGETS.length, round)) {
      rounds[index]!.push(await runRound(rig, THROUGHPUT_TARGETS[index]!, options.concurrency, options.turns));
    }
  }
  return THROUGHPUT_TARGETS.map((target, index) => {
    const results = rounds[index]!;
    const requestMs = results.flatMap((result) => result.requestMs);
    const actions: Partial<Record<ChatAction, number>> = {};
    for (const action of CHAT_ACTIONS) {
      const count = results.reduce((sum, result) => sum + result.reports.filter((report) => report.action === action).length, 0);
      if (count > 0) actions[action] = count;
    }
    return {
      target,
      roundRequestsPerSecond: results.map((result) => result.requestsPerSecond),
      requestsPerSecond: median(results.map((result) => result.requestsPerSecond)),
      requestMedianMs: median(requestMs),
      requestP95Ms: percentile(requestMs, 0.95),
      actions,
      upstream: addUpstreamRecords(results.map((result) => result.upstream)),
    };
  });
}
