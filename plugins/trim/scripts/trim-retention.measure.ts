import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProviderContext, partText, renderMessage, resolveCompressionConfig, type Message, type TokenCounter, runProvider } from '@ollm/core';
import { readTranscript } from '@ollm/transcripts';
import { expect, it } from 'vitest';
import trim from '../src/index.js';
import { submissionProbes } from './submission-probes.js';

const root = new URL('../../../', import.meta.url).pathname;
const shared = join(root, '..', 'shared', 'fixtures', 'swe-agent-django');
const folder = existsSync(shared) ? shared : join(root, 'fixtures', 'swe-agent-django');
const ratio = Number(process.env['TRIM_LIMIT_RATIO'] ?? '0.5');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Share of probes found in the rendered messages (pinned ones optionally left out). */
function share(probes: string[], messages: readonly Message[], withPinned: boolean): number {
  if (probes.length === 0) return 1;
  const text = messages
    .filter((message) => withPinned || !message.pinned)
    .map(renderMessage)
    .join('\n');
  return probes.filter((probe) => text.includes(probe)).length / probes.length;
}

/** Shares of the input trim never edits (system, user and pinned messages) and in tool calls (folded only when old and long). */
function floors(messages: readonly Message[], tokens: TokenCounter): { protectedTokens: number; callTokens: number } {
  let protectedTokens = 0;
  let callTokens = 0;
  for (const message of messages) {
    if (message.pinned || message.role === 'system' || message.role === 'user') protectedTokens += tokens.countMessage(message);
    else for (const part of message.parts) if (part.type === 'tool-call') callTokens += tokens.countText(partText(part));
  }
  return { protectedTokens, callTokens };
}

it(`measures trim at limit ${ratio} x tokens on ${folder}`, async () => {
  const context = createProviderContext();
  const rows: {
    id: string;
    before: number;
    after: number;
    removed: number;
    under: boolean;
    all: number;
    noPinned: number;
    baseline: number;
    ms: number;
    protectedShare: number;
    callShare: number;
    calls: number;
  }[] = [];
  for (const name of readdirSync(folder)
    .filter((file) => file.endsWith('.traj.json'))
    .sort()) {
    const file = join(folder, name);
    const submission = String(JSON.parse(readFileSync(file, 'utf8')).info?.submission ?? '');
    const probes = submissionProbes(submission);
    const all = [...probes.paths, ...probes.names];
    const messages = (await readTranscript(file)).conversations[0]!.messages;
    const before = context.tokens.countMessages(messages);
    const limit = Math.floor(before * ratio);
    const result = await runProvider(trim, messages, resolveCompressionConfig({ limit, logdir: mkdtempSync(join(tmpdir(), 'trim-measure-')) }), context);
    const kept = result.messages
      .filter((message) => !message.pinned)
      .map(renderMessage)
      .join('\n');
    const missing = all.filter((probe) => !kept.includes(probe));
    if (missing.length > 0) console.log(`${name}: lost outside the pinned exit message: ${missing.join(', ')}`);
    rows.push({
      id: name.replace('.traj.json', ''),
      before,
      after: result.stats.tokensAfter,
      removed: (100 * (before - result.stats.tokensAfter)) / before,
      under: result.stats.tokensAfter <= limit,
      all: share(all, result.messages, true),
      noPinned: share(all, result.messages, false),
      baseline: share(all, messages, false),
      ms: result.stats.timeMs,
      protectedShare: (100 * floors(messages, context.tokens).protectedTokens) / before,
      callShare: (100 * floors(messages, context.tokens).callTokens) / before,
      calls: result.removed.filter((entry) => entry.kind === 'tool-call-input').length,
    });
  }
  console.log('transcript            before   after  removed%  under  probes(all)  probes(no exit)  uncompressed(no exit)  protected%  calls%  folded  ms');
  for (const row of rows) {
    console.log(
      `${row.id.padEnd(20)} ${String(row.before).padStart(7)} ${String(row.after).padStart(7)} ${row.removed.toFixed(1).padStart(8)}  ${String(row.under).padEnd(5)}  ${(100 * row.all).toFixed(0).padStart(10)}%  ${(100 * row.noPinned).toFixed(0).padStart(14)}%  ${(100 * row.baseline).toFixed(0).padStart(20)}%  ${row.protectedShare.toFixed(1).padStart(9)}%  ${row.callShare.toFixed(1).padStart(5)}%  ${String(row.calls).padStart(6)}  ${row.ms.toFixed(0)}`,
    );
  }
  console.log(
    `median removed ${median(rows.map((row) => row.removed)).toFixed(1)}%, under limit ${rows.filter((row) => row.under).length}/${rows.length}, median protected ${median(rows.map((row) => row.protectedShare)).toFixed(1)}% and in tool calls ${median(rows.map((row) => row.callShare)).toFixed(1)}% of the input, ` +
      `median probe share ${(100 * median(rows.map((row) => row.all))).toFixed(0)}% (without the pinned exit message ${(100 * median(rows.map((row) => row.noPinned))).toFixed(0)}%, mean ${((100 * rows.reduce((sum, row) => sum + row.noPinned, 0)) / rows.length).toFixed(0)}%)`,
  );
  expect(rows.length).toBeGreaterThan(0);
});
