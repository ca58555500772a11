import { measureChatWindow } from '../chat-window/chat-window.js';
import type { ChatWindowResult } from '../chat-window/chat-window-scenario.js';
import { FIXED_CLOCK } from './run-ollm.js';

const HEADER = [
  '| build | window | server reports | requests | largest request (share of window) | over window - 15% | over window | with a reply limit | first request after a 99% resume |',
  '|---|--:|---|--:|--:|--:|--:|--:|--:|',
];

const integer = (value: number) => value.toLocaleString('en-US');
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

function row(build: string, result: ChatWindowResult): string {
  return `| ${build} | ${integer(result.window)} | ${result.reportedScale === 1 ? 'exact' : `x${result.reportedScale} (under-reports)`} | ${result.requests} | ${integer(result.largestTokens)} (${percent(result.largestShare)}) | ${result.overReserve} | ${result.overWindow} | ${result.withReplyLimit}/${result.requests} | ${percent(result.resumedFirstShare)} |`;
}

/**
 * The table of docs/runtime.md: the scripted chat (`pnpm --filter @ollm/bench chat-window`) run
 * against `binary` (rows "after"), and against `beforeBinary` when given (rows "before"; without
 * it the rows already in the block are kept, since the old build is not at hand on every run),
 * both on the fixed clock of the recordings (fixed-clock.ts), so a second run writes the same figures.
 * The "pastes refused" column of chat-window is left out: it is read from output that races the
 * status line, so it can differ between runs.
 */
export async function recordChatWindowTable(binary: string, beforeBinary: string | undefined, beforeLabel: string, previous: string): Promise<string> {
  const before = beforeBinary
    ? (await measureChatWindow({ binary: beforeBinary, preload: FIXED_CLOCK })).map((result) => row(beforeLabel, result))
    : previous.split('\n').filter((line) => line.startsWith('| before'));
  const after = (await measureChatWindow({ binary, preload: FIXED_CLOCK })).map((result) => row('after', result));
  return [...HEADER, ...before, ...after].join('\n');
}
