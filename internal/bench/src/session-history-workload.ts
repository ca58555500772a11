import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@ollm/core';
import { HISTORY_FILE, SessionHistory } from '@ollm/runtime';
import { median, timeSync } from './measure.js';

export interface HistoryAppendCost {
  readonly turns: number;
  readonly fileMegabytes: number;
  /** Median time of one `SessionHistory.append` (locked, repaired, one write). */
  readonly appendMs: number;
}

export interface SessionHistoryResult {
  readonly sizes: readonly HistoryAppendCost[];
  readonly appendsPerSize: number;
  /** largest / smallest. */
  readonly ratio: number;
}

/** Only what the model saw: metadata such as SWE-agent `extra` would triple the file for nothing. */
function turnOf(message: Message, id: string): Message {
  return { id, role: message.role, parts: message.parts, ...(message.timestamp ? { timestamp: message.timestamp } : {}) };
}

/** Writes a history file of `turns` message lines directly, in SessionHistory's own line format. */
function writeHistoryFile(path: string, sessionId: string, pool: readonly Message[], turns: number): void {
  const descriptor = openSync(path, 'w');
  try {
    writeSync(descriptor, `${JSON.stringify({ type: 'session', sessionId, startTime: new Date().toISOString() })}\n`);
    const at = new Date().toISOString();
    let chunk: string[] = [];
    for (let turn = 0; turn < turns; turn += 1) {
      chunk.push(JSON.stringify({ type: 'message', message: turnOf(pool[turn % pool.length]!, `turn-${turn}`), at }));
      if (chunk.length === 1000) {
        writeSync(descriptor, `${chunk.join('\n')}\n`);
        chunk = [];
      }
    }
    if (chunk.length > 0) writeSync(descriptor, `${chunk.join('\n')}\n`);
  } finally {
    closeSync(descriptor);
  }
}

/** Append cost per turn on histories of each size, in a temporary OLLM_HOME that is removed after. */
export function measureSessionHistory(pool: readonly Message[], sizes: readonly number[], appends: number): SessionHistoryResult {
  const home = mkdtempSync(join(tmpdir(), 'ollm-bench-home-'));
  try {
    const results = sizes.map((turns): HistoryAppendCost => {
      const sessionId = `bench-${turns}`;
      mkdirSync(join(home, 'sessions', sessionId), { recursive: true });
      const path = join(home, 'sessions', sessionId, HISTORY_FILE);
      writeHistoryFile(path, sessionId, pool, turns);
      const history = new SessionHistory({ home, sessionId });
      const times: number[] = [];
      try {
        for (let index = 0; index < appends; index += 1) {
          const message = turnOf(pool[(index * 7919) % pool.length]!, `appended-${index}`);
          times.push(timeSync(() => history.append(message)));
        }
      } finally {
        history.close();
      }
      return { turns, fileMegabytes: statSync(path).size / 2 ** 20, appendMs: median(times) };
    });
    return { sizes: results, appendsPerSize: appends, ratio: results[results.length - 1]!.appendMs / results[0]!.appendMs };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
