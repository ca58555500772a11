import type { RequestReport } from '@ollm/serve';
import { millisecondsSince } from '../measure.js';
import { interleavedOrder } from '../speed/interleaved-order.js';
import { agentTurn, ollamaConversation, openAIConversation, type WireConversation } from './agent-conversation.js';
import { createChatClient, type ChatClientKind } from './chat-client.js';
import { latencyStatistics, type LatencyStatistics, type RequestPair } from './latency-statistics.js';
import { addUpstreamRecords, reportAfter, type ServeRig, type UpstreamRecord } from './serve-rig.js';

export type ChatAction = RequestReport['action'];
/** The order actions are reported in. */
export const CHAT_ACTIONS: readonly ChatAction[] = ['fits', 'reused', 'compacted', 'unread'];

/** One client's requests of one case (`turns`-turn conversations), direct and proxied. */
export interface LatencyCase {
  readonly client: ChatClientKind;
  readonly turns: number;
  readonly conversations: number;
  readonly all: LatencyStatistics;
  /** The same pairs split by what the proxy did (`onChat`'s `action`), in `CHAT_ACTIONS` order. */
  readonly byAction: readonly { readonly action: ChatAction; readonly statistics: LatencyStatistics }[];
  /** What the fake server received, over all the case's conversations. */
  readonly upstream: UpstreamRecord;
}

interface ActionPair extends RequestPair {
  readonly action: ChatAction;
}

export interface LatencyOptions {
  readonly clients: readonly ChatClientKind[];
  readonly turns: number;
  readonly conversations: number;
  readonly onConversation?: (done: number, total: number) => void;
}

function wireConversation(kind: ChatClientKind, conversation: number): WireConversation {
  return kind.api === 'openai' ? openAIConversation(conversation) : ollamaConversation(conversation);
}

/**
 * One conversation of `turns` turns; every turn's request is sent straight to the fake server and
 * through the memory-store proxy, the same messages both ways, the order alternating turn by
 * turn. Times are the client's call, until the reply's last byte was read (untimed: building the
 * turn, waiting for the proxy's report).
 */
async function conversationPairs(rig: ServeRig, kind: ChatClientKind, turns: number): Promise<ActionPair[]> {
  const proxy = rig.proxies.memory;
  const id = rig.newConversation();
  const clients = [createChatClient(kind, rig.fake.url, rig.settings('direct')), createChatClient(kind, proxy.url, rig.settings('proxied'))] as const;
  const conversation = wireConversation(kind, id);
  const pairs: ActionPair[] = [];
  for (let turn = 0; turn < turns; turn += 1) {
    conversation.addTurn(agentTurn(id, turn));
    const reported = proxy.reports.length;
    const milliseconds = [0, 0];
    let reply = '';
    for (const index of interleavedOrder(2, turn + id)) {
      const start = process.hrtime.bigint();
      const text = await clients[index]!(conversation.messages);
      milliseconds[index] = millisecondsSince(start);
      if (index === 1) reply = text;
    }
    const report = await reportAfter(proxy.reports, reported);
    pairs.push({ directMs: milliseconds[0]!, proxiedMs: milliseconds[1]!, action: report.action });
    conversation.addReply(reply);
  }
  return pairs;
}

/** Untimed conversations, one per client: the code of every path compiled, fold run, before anything is timed. */
export async function warmUp(rig: ServeRig, clients: readonly ChatClientKind[], turns: number): Promise<void> {
  for (const kind of clients) await conversationPairs(rig, kind, turns);
  await rig.takeRecord();
}

/**
 * Added latency per request: `conversations` conversations per client, the clients taking turns
 * (their order rotating per conversation) so the machine's slow moments fall on all of them.
 */
export async function measureLatency(rig: ServeRig, options: LatencyOptions): Promise<LatencyCase[]> {
  const pairs = options.clients.map((): ActionPair[] => []);
  const records = options.clients.map((): UpstreamRecord[] => []);
  const total = options.conversations * options.clients.length;
  let done = 0;
  for (let round = 0; round < options.conversations; round += 1) {
    for (const index of interleavedOrder(options.clients.length, round)) {
      pairs[index]!.push(...(await conversationPairs(rig, options.clients[index]!, options.turns)));
      records[index]!.push(await rig.takeRecord());
      options.onConversation?.((done += 1), total);
    }
  }
  return options.clients.map((client, index) => {
    const own = pairs[index]!;
    return {
      client,
      turns: options.turns,
      conversations: options.conversations,
      all: latencyStatistics(own),
      byAction: CHAT_ACTIONS.flatMap((action) => {
        const chosen = own.filter((pair) => pair.action === action);
        return chosen.length === 0 ? [] : [{ action, statistics: latencyStatistics(chosen) }];
      }),
      upstream: addUpstreamRecords(records[index]!),
    };
  });
}
