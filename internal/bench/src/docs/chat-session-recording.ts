import { TokenCounter, createTokenizer, messageText } from '@ollm/core';
import { resolveReplyReserve } from '@ollm/runtime';
import { chatRequests, startFakeModelServer, type FakeChatRequest } from '@ollm/fake-model-server';
import { wordsOfTokens } from '../chat-window/words-of-tokens.js';
import { DemoUser, runOllm, startOllm } from './run-ollm.js';

/** The demo chat's window: small enough that eleven short questions need a compression. */
export const DEMO_WINDOW = 1024;
export const DEMO_SESSION = 'docs-demo';
export const DEMO_MODEL = 'fake-llama:8b';

/** One question of the demo: the lines piped in (a trailing `\` goes on on the next line) and the fixed reply. */
interface Question {
  readonly lines: readonly string[];
  readonly reply: string;
}

const QUESTIONS: readonly Question[] = [
  {
    lines: ['q1: our HTTP client gives up on the first network error. How do we add retries?'],
    reply:
      'Start with the transport: src/http/client.ts sends each request once. I will wrap send() in a retry loop with exponential backoff (250 ms doubling, at most 4 attempts).\n[CHECKPOINT] Retry loop in src/http/client.ts - IN PROGRESS',
  },
  {
    lines: ['q2: which requests are safe to retry?'],
    reply:
      'Retry only idempotent requests: GET, HEAD, PUT and DELETE, plus POST when the caller passes an idempotency key. Everything else fails at once so nothing is sent twice.\n[DECISION] Retry only idempotent requests - LOCKED',
  },
  {
    lines: ['q3: what about rate limits?'],
    reply:
      "Honour Retry-After on 429 and 503: seconds or an HTTP date, capped at 30 s. A header beyond the cap ends the retries with the server's error instead of waiting.\n[ARTIFACT] Modified src/http/client.ts",
  },
  {
    lines: [
      'q4: write the tests for it, one per case:\\',
      '- a refused connection\\',
      '- a 503 with Retry-After, a 429 with an HTTP date\\',
      '- a POST without a key (sent once)',
    ],
    reply:
      'Tests: tests/http/client.test.ts now covers a refused connection, a 503 with Retry-After, a 429 with an HTTP date and a POST without a key (sent once). All four pass.\n[CHECKPOINT] Retry loop in src/http/client.ts - COMPLETED',
  },
  {
    lines: ['q5: should the delays be randomised?'],
    reply:
      'Jitter: full jitter (a random delay between 0 and the backoff) spreads clients that failed together, so they do not all retry at the same moment.\n[DECISION] Full jitter on every backoff - LOCKED',
  },
  {
    lines: ['q6: how do we see retries in the logs?'],
    reply:
      'Logging: each retry logs the attempt, the delay and the status at debug level, and the final failure once at warn level with the number of attempts.\n[NEXT] Add a circuit breaker after repeated failures',
  },
  {
    lines: ['q7: and when the server is down for minutes?'],
    reply:
      'Circuit breaker: after 5 consecutive failures the client fails fast for 30 s, then lets one request through to probe the server before closing again.\n[ARTIFACT] Created src/http/circuit-breaker.ts',
  },
  {
    lines: ['q8: make it configurable'],
    reply:
      'Configuration: retries, base delay, cap and breaker threshold move to ClientOptions with the defaults above, documented in docs/http-client.md.\n[ARTIFACT] Modified docs/http-client.md',
  },
  {
    lines: ['q9: what about timeouts?'],
    reply:
      'Timeouts: each attempt gets its own 10 s timeout and the whole call a 60 s budget, so retries never stretch a request past what the caller allowed.\n[DECISION] Per-attempt and total timeouts - LOCKED',
  },
  {
    lines: ['q10: can we count retries?'],
    reply:
      'Metrics: a counter of retries by status and a histogram of attempts per call, exported through the existing metrics hook in src/metrics.ts.\n[ARTIFACT] Modified src/metrics.ts',
  },
  {
    lines: ['q11: summarise where we are'],
    reply:
      'Review: the retry path, Retry-After handling, jitter, timeouts and the breaker are done and tested; only the metrics dashboard is left for the ops team.\n[CHECKPOINT] Metrics dashboard - PENDING',
  },
];

/** The fixed reply to a question (`qN: …`); undefined for goal-aware's summary requests, which get the server's extractive digest. */
function replyTo(request: FakeChatRequest): string | undefined {
  const last = request.messages.at(-1);
  if (last?.role !== 'user') return undefined;
  const asked = /^(q\d+):/.exec(messageText(last))?.[1];
  return QUESTIONS.find((question) => question.lines[0]!.startsWith(`${asked}:`))?.reply;
}

export interface ChatRecording {
  /** The lines piped into the chat. */
  readonly input: readonly string[];
  /** What the chat printed, stdout and stderr in the order written. */
  readonly transcript: string;
  readonly exitCode: number | null;
  /** The `ollm` commands run on the session after the chat, each with its output. */
  readonly afterwards: readonly { readonly command: string; readonly output: string }[];
  /** What the fake server received. */
  readonly requests: RequestFigures;
}

export interface RequestFigures {
  readonly window: number;
  readonly replyReserve: number;
  readonly requestLimit: number;
  /** Requests for a chat reply (the user's questions). */
  readonly replies: number;
  readonly largestReply: number;
  readonly repliesWithReserve: number;
  /** goal-aware's summary requests: the largest prompt, and the largest reply limit they asked for. */
  readonly summaries: number;
  readonly largestSummaryPrompt: number;
  readonly largestSummaryOutput: number;
}

const ARGS = ['--provider', 'goal-aware', '--model', DEMO_MODEL, '--context-size', String(DEMO_WINDOW), '--session', DEMO_SESSION];

/**
 * The demo session of docs/cli.md: the built binary with piped input against the fake model
 * server (fixed replies to the questions, its extractive digest for goal-aware's summaries), then
 * `ollm sessions` and `ollm snapshot` on the session it left. Ids and times are fixed by the
 * preload (fixed-clock.ts); the server's port is shown as `<port>`.
 */
export async function recordChatSession(binary: string, extraArgs: readonly string[] = []): Promise<ChatRecording> {
  const server = await startFakeModelServer({ reply: replyTo });
  const user = new DemoUser();
  const clean = (text: string) => user.clean(text).split(server.url).join('http://127.0.0.1:<port>');
  try {
    const chat = startOllm(binary, ['--host', server.url, ...ARGS, ...extraArgs], user);
    const input: string[] = [];
    const send = (line: string) => {
      input.push(line);
      chat.send(line);
    };
    send('/goal make the HTTP client retry safely');
    for (const question of QUESTIONS) for (const line of question.lines) send(line);
    send('/status');
    send('/snapshot create before the breaker');
    const created = await chat.waitFor(/^snapshot created: (\S+)/m);
    send('/compact auto');
    send('/snapshot list');
    send(`/snapshot restore ${created[1]}`);
    send('/goal');
    send('/goal done');
    send('/goal list');
    send('/export');
    send('/quit');
    chat.end();
    const exitCode = await chat.exited;
    const transcript = clean(chat.output());

    const afterwards: { command: string; output: string }[] = [];
    const run = async (args: string[]) => {
      const result = await runOllm(binary, args, user);
      if (result.exitCode !== 0) throw new Error(`ollm ${args.join(' ')} exited ${result.exitCode}:\n${result.output}`);
      afterwards.push({ command: `ollm ${args.join(' ')}`, output: clean(result.output) });
      return result.output;
    };
    await run(['sessions', 'list']);
    await run(['sessions', 'export', DEMO_SESSION, '--out', 'session.json']);
    await run(['sessions', 'search', 'Retry-After', '--limit', '3']);
    const snapshots = await run(['snapshot', 'list']);
    const automatic = /^(\S+)\s.*\bauto\b.*before automatic compaction$/m.exec(snapshots)?.[1];
    if (automatic) await run(['snapshot', 'restore', automatic]);

    const replyReserve = resolveReplyReserve(DEMO_WINDOW, undefined);
    const chats = chatRequests(server);
    const replies = chats.filter((request) => request.maxTokens === replyReserve && !isSummaryRequest(request.messages));
    const summaries = chats.filter((request) => isSummaryRequest(request.messages));
    return {
      input,
      transcript,
      exitCode,
      afterwards,
      requests: {
        window: DEMO_WINDOW,
        replyReserve,
        requestLimit: DEMO_WINDOW - replyReserve,
        replies: chats.length - summaries.length,
        largestReply: Math.max(0, ...chats.filter((request) => !summaries.includes(request)).map((request) => request.promptTokens)),
        repliesWithReserve: replies.length,
        summaries: summaries.length,
        largestSummaryPrompt: Math.max(0, ...summaries.map((request) => request.promptTokens)),
        largestSummaryOutput: Math.max(0, ...summaries.map((request) => request.maxTokens ?? 0)),
      },
    };
  } finally {
    await server.close();
    user.remove();
  }
}

function isSummaryRequest(messages: readonly { parts: readonly unknown[] }[]): boolean {
  const last = messages.at(-1) as Parameters<typeof messageText>[0] | undefined;
  return last !== undefined && messageText(last).includes('<conversation>');
}

/**
 * The refusal of a message that cannot fit the window on its own: a 1,000-token line sent to the
 * demo's 1,024-token window. Returns what the chat printed after echoing it (the error, the
 * note, the status line); the long input line itself is left out.
 */
export async function recordOverflow(binary: string): Promise<string> {
  const server = await startFakeModelServer({ reply: () => 'ok' });
  const user = new DemoUser();
  try {
    const chat = startOllm(binary, ['--host', server.url, '--model', DEMO_MODEL, '--context-size', String(DEMO_WINDOW), '--session', 'docs-overflow'], user);
    const counter = new TokenCounter(createTokenizer('o200k_base'));
    chat.send(`here is the whole build log: ${wordsOfTokens(1000, 7, counter)}`);
    chat.send('/quit');
    chat.end();
    await chat.exited;
    const lines = user.clean(chat.output()).split('\n');
    const echoed = lines.findIndex((line) => line.startsWith('> here is the whole build log'));
    return lines.slice(echoed + 1, echoed + 4).join('\n');
  } finally {
    await server.close();
    user.remove();
  }
}
