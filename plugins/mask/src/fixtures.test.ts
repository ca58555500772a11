import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  canonicalMessage,
  createProviderContext,
  findIntegrityViolations,
  resolveCompressionConfig,
  sha256Hex,
  type CompactionResult,
  type ContextProvider,
  type Message,
  runProvider,
} from '@ollm/core';
import { readTranscript } from '@ollm/transcripts';
import { createMaskProvider, isPlaceholder } from './index.js';
import { patchProbes, presentProbes } from './test-support/patch-probes.js';

const repositoryFixtures = fileURLToPath(new URL('../../../fixtures/', import.meta.url));
const sharedFixtures = fileURLToPath(new URL('../../../../shared/fixtures/', import.meta.url));
const context = createProviderContext();
const logdir = mkdtempSync(join(tmpdir(), 'ollm-mask-fixtures-'));
afterAll(() => rmSync(logdir, { recursive: true, force: true }));

/** Files of `folder` in the repo fixtures, plus those of the shared fixtures when present (by name). */
function fixtureFiles(folder: string, suffix: string): string[] {
  const files = new Map<string, string>();
  for (const root of [repositoryFixtures, sharedFixtures]) {
    const directory = join(root, folder);
    if (!existsSync(directory)) continue;
    for (const name of readdirSync(directory)
      .filter((entry) => entry.endsWith(suffix))
      .sort())
      files.set(name, join(directory, name));
  }
  return [...files.values()];
}

/** Runs `provider` at half the conversation's tokens and checks every rule the brief sets. */
async function compactAndCheck(provider: ContextProvider, messages: readonly Message[], extraConfig?: Record<string, unknown>) {
  const tokens = context.tokens.countMessages(messages);
  const limit = Math.floor(tokens / 2);
  const result = await runProvider(provider, messages, resolveCompressionConfig({ limit, logdir, ...(extraConfig ? { extraConfig } : {}) }), context);
  expect(findIntegrityViolations(messages, result, context.tokens)).toEqual([]);
  if (result.stats.tokensAfter > limit) expect(result.limitations.join('\n')).toContain('over the limit');
  const output = new Map(result.messages.map((message) => [message.id, message]));
  for (const message of messages) {
    if (message.role === 'user' || message.role === 'system' || message.pinned) {
      expect(canonicalMessage(output.get(message.id)!)).toBe(canonicalMessage(message));
    }
  }
  expectRecoverable(messages, result);
  return { tokens, limit, result };
}

function expectRecoverable(messages: readonly Message[], result: CompactionResult): void {
  const input = new Map(messages.map((message) => [message.id, message]));
  for (const entry of result.removed) {
    const saved = readFileSync(entry.path!);
    expect(sha256Hex(saved)).toBe(entry.sha256);
    const outputs = input.get(entry.messageId)!.parts.flatMap((part) => (part.type === 'tool-result' ? [part.output] : []));
    expect(outputs).toContain(saved.toString('utf8'));
  }
}

interface Measurement {
  readonly name: string;
  readonly removedShare: number;
  readonly removedShareAll: number;
  readonly removedShareAt80: number;
  readonly probes: number;
  readonly probesBefore: number;
  readonly probesAfter: number;
  readonly outputProbesBefore: number;
  readonly outputProbesAfter: number;
}
const measurements: Measurement[] = [];

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

describe('mask on SWE-agent trajectories at limit = 50% of tokens', () => {
  const files = fixtureFiles('swe-agent-django', '.traj.json');
  it('finds the repository fixtures', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  for (const file of files) {
    it(`keeps every rule on ${basename(file)}`, async () => {
      const transcript = await readTranscript(file);
      const messages = transcript.conversations[0]!.messages;
      const { tokens, result } = await compactAndCheck(createMaskProvider(), messages);
      expect(result.removed.length).toBeGreaterThan(0);
      const all = await compactAndCheck(createMaskProvider({ mode: 'all' }), messages);
      expect(all.result.stats.tokensAfter).toBeLessThanOrEqual(result.stats.tokensAfter);
      // At a reachable limit, until-limit stops early and keeps more outputs than all.
      const limit80 = Math.floor(tokens * 0.8);
      const at80 = await runProvider(createMaskProvider(), messages, resolveCompressionConfig({ limit: limit80, logdir }), context);
      expect(findIntegrityViolations(messages, at80, context.tokens)).toEqual([]);
      if (all.result.stats.tokensAfter <= limit80) {
        expect(at80.stats.tokensAfter).toBeLessThanOrEqual(limit80);
        expect(at80.removed.length).toBeLessThanOrEqual(all.result.removed.length);
      }

      // Probes of the final patch, outside the pinned exit message that holds the patch itself.
      const submission = (transcript.document as { info?: { submission?: string } }).info?.submission ?? '';
      const probes = patchProbes(submission);
      const withoutPatch = (list: readonly Message[]) => list.filter((message) => !message.pinned);
      measurements.push({
        name: basename(file, '.traj.json'),
        removedShare: 1 - result.stats.tokensAfter / tokens,
        removedShareAll: 1 - all.result.stats.tokensAfter / tokens,
        removedShareAt80: 1 - at80.stats.tokensAfter / tokens,
        probes: probes.length,
        probesBefore: presentProbes(probes, withoutPatch(messages)).length,
        probesAfter: presentProbes(probes, withoutPatch(result.messages)).length,
        outputProbesBefore: presentProbes(probes, withoutPatch(messages), true).length,
        outputProbesAfter: presentProbes(probes, withoutPatch(result.messages), true).length,
      });
    });
  }

  afterAll(() => {
    if (measurements.length === 0) return;
    const lines = measurements.map(
      (entry) =>
        `${entry.name.padEnd(24)} removed ${(100 * entry.removedShare).toFixed(1).padStart(5)}% (all: ${(100 * entry.removedShareAll).toFixed(1).padStart(5)}%, at limit 80%: ${(100 * entry.removedShareAt80).toFixed(1).padStart(5)}%)  patch probes ${entry.probesAfter}/${entry.probesBefore} of ${entry.probes}, in tool outputs ${entry.outputProbesAfter}/${entry.outputProbesBefore}`,
    );
    const share = (after: (entry: Measurement) => number, before: (entry: Measurement) => number) =>
      measurements.reduce((sum, entry) => sum + after(entry), 0) /
      Math.max(
        1,
        measurements.reduce((sum, entry) => sum + before(entry), 0),
      );
    const retained = share(
      (entry) => entry.probesAfter,
      (entry) => entry.probesBefore,
    );
    const retainedInOutputs = share(
      (entry) => entry.outputProbesAfter,
      (entry) => entry.outputProbesBefore,
    );
    lines.push(
      `median removed ${(100 * median(measurements.map((entry) => entry.removedShare))).toFixed(1)}% (until-limit), ` +
        `${(100 * median(measurements.map((entry) => entry.removedShareAll))).toFixed(1)}% (all), ` +
        `${(100 * median(measurements.map((entry) => entry.removedShareAt80))).toFixed(1)}% at limit 80%; ` +
        `patch probes retained ${(100 * retained).toFixed(1)}% of those present before (pinned exit excluded), ` +
        `${(100 * retainedInOutputs).toFixed(1)}% counting tool outputs only`,
    );
    console.log(`mask at limit 50%, ${measurements.length} transcripts:\n${lines.join('\n')}`);
  });
});

describe('mask on tau-bench conversations (JSON outputs)', () => {
  const files = fixtureFiles('tau-bench-airline', '.json');
  for (const file of files) {
    it(`keeps every rule on ${basename(file)} with keepLast 2`, async () => {
      const transcript = await readTranscript(file);
      let masked = 0;
      for (const conversation of transcript.conversations.slice(0, 40)) {
        const { result } = await compactAndCheck(createMaskProvider(), conversation.messages, { keepLast: 2, mode: 'all' });
        for (const message of result.messages) {
          for (const part of message.parts) {
            if (part.type !== 'tool-result' || !isPlaceholder(part.output)) continue;
            masked += 1;
            expect(part.output).toMatch(/JSON (object|array)|first line/);
          }
        }
      }
      expect(masked).toBeGreaterThan(0);
    });
  }
});
