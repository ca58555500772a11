import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { TokenCounter, type Message } from '@ollm/core';
import { HISTORY_FILE, SessionHistory, type SessionEntry } from '@ollm/runtime';
import { median } from './median.js';

export interface AppendTiming {
  readonly existingTurns: number;
  readonly fileMegabytes: number;
  /** Milliseconds to append one turn (all its messages), over every timed append. */
  readonly medianMs: number;
  readonly p95Ms: number;
  readonly samples: number;
}

/**
 * Writes a session file of `turns` turns directly, line by line in SessionHistory's format (header,
 * then one `message` entry per message), which is far quicker than appending them one by one.
 * `tokensOf(turn, position)` gives each message's count (cycled turns can reuse their source's).
 */
export function writeSessionFile(
  home: string,
  sessionId: string,
  turns: Iterable<readonly Message[]>,
  tokensOf: (turn: number, position: number) => number,
): string {
  const folder = join(home, 'sessions', sessionId);
  mkdirSync(folder, { recursive: true });
  const path = join(folder, HISTORY_FILE);
  const descriptor = openSync(path, 'w');
  try {
    const header: SessionEntry = { type: 'session', sessionId, startTime: new Date().toISOString() };
    writeSync(descriptor, `${JSON.stringify(header)}\n`);
    let batch: string[] = [];
    let index = 0;
    for (const turn of turns) {
      turn.forEach((message, position) => {
        const entry: SessionEntry = { type: 'message', message, tokens: tokensOf(index, position), at: message.timestamp ?? new Date().toISOString() };
        batch.push(JSON.stringify(entry));
      });
      index += 1;
      if (batch.length >= 2_000) {
        writeSync(descriptor, `${batch.join('\n')}\n`);
        batch = [];
      }
    }
    if (batch.length > 0) writeSync(descriptor, `${batch.join('\n')}\n`);
  } finally {
    closeSync(descriptor);
  }
  return path;
}

/**
 * Times `SessionHistory.append` of whole turns on sessions of different lengths. Rounds alternate
 * between the sessions so that warm-up and machine noise fall on both alike.
 */
export function timeAppends(input: {
  readonly sessions: readonly { readonly history: SessionHistory; readonly existingTurns: number; readonly fileMegabytes: number }[];
  readonly turns: readonly (readonly Message[])[];
  readonly tokens: TokenCounter;
  readonly rounds?: number;
  readonly appendsPerRound?: number;
}): AppendTiming[] {
  const rounds = input.rounds ?? 5;
  const perRound = input.appendsPerRound ?? 200;
  const samples = input.sessions.map(() => [] as number[]);
  let next = 0;
  const appendTurn = (history: SessionHistory) => {
    const turn = input.turns[next++ % input.turns.length]!;
    const counts = turn.map((message) => input.tokens.countMessage(message));
    const started = performance.now();
    turn.forEach((message, index) => history.append(message, counts[index]));
    return performance.now() - started;
  };
  for (const { history } of input.sessions) for (let warmUp = 0; warmUp < 20; warmUp += 1) appendTurn(history);
  for (let round = 0; round < rounds; round += 1) {
    input.sessions.forEach(({ history }, index) => {
      for (let append = 0; append < perRound; append += 1) samples[index]!.push(appendTurn(history));
    });
  }
  return input.sessions.map((session, index) => {
    const sorted = [...samples[index]!].sort((a, b) => a - b);
    return {
      existingTurns: session.existingTurns,
      fileMegabytes: session.fileMegabytes,
      medianMs: median(sorted),
      p95Ms: sorted[Math.floor(sorted.length * 0.95)]!,
      samples: sorted.length,
    };
  });
}
