/**
 * `node internal/bench/dist/chat-window/chat-window.js [--binary PATH] [--json]`: the scripted chat
 * of docs/runtime.md against the loopback fake model server, at windows 2,048 / 4,096 / 16,384,
 * with an exact and a 10x under-reporting server. Prints what the server received.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_CASES, runChatWindowCase, type ChatWindowResult } from './chat-window-scenario.js';
import type { OllmLaunch } from './scripted-chat.js';

const DEFAULT_BINARY = fileURLToPath(new URL('../../../../apps/cli/dist/bin.js', import.meta.url));

export async function measureChatWindow(binary: string | OllmLaunch, onCase?: (result: ChatWindowResult) => void): Promise<ChatWindowResult[]> {
  const results: ChatWindowResult[] = [];
  for (const input of DEFAULT_CASES) {
    const result = await runChatWindowCase(binary, input);
    onCase?.(result);
    results.push(result);
  }
  return results;
}

export function formatChatWindowRow(result: ChatWindowResult): string {
  const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
  return `| ${result.window} | ${result.reportedScale === 1 ? 'exact' : `x${result.reportedScale}`} | ${result.requests} | ${result.largestTokens} (${percent(result.largestShare)}) | ${result.overReserve} | ${result.overWindow} | ${result.withReplyLimit}/${result.requests} | ${percent(result.resumedFirstShare)} | ${result.refusedPastes} |`;
}

export const CHAT_WINDOW_HEADER = [
  '| window | server reports | requests | largest request (share of window) | over window - 15% | over window | with reply limit | first request after a 99% resume | pastes refused |',
  '|--:|---|--:|--:|--:|--:|--:|--:|--:|',
];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { binary: { type: 'string', default: DEFAULT_BINARY }, json: { type: 'boolean', default: false } } });
  const results = await measureChatWindow(values.binary, (result) =>
    process.stderr.write(`window ${result.window}, reported x${result.reportedScale}: largest ${result.largestTokens}\n`),
  );
  if (values.json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  else process.stdout.write(`${[...CHAT_WINDOW_HEADER, ...results.map(formatChatWindowRow)].join('\n')}\n`);
}
