import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { renderMessage, type Message } from '@ollm/core';
import { readTranscript } from '@ollm/transcripts';
import { findCodeViews } from './compaction/find-code-views.js';
import { createCodeAwareProvider } from './index.js';
import { checkRealCompaction } from './test-support/check-real-compaction.js';
import { finalPatchProbes, submissionOf } from './test-support/final-patch-probes.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const repoFixtures = join(root, 'fixtures');
const sharedFixtures = join(root, '..', 'shared', 'fixtures');
const logdir = mkdtempSync(join(tmpdir(), 'ollm-code-aware-real-'));
afterAll(() => rmSync(logdir, { recursive: true, force: true }));

const provider = createCodeAwareProvider();

function transcriptsIn(folder: string): string[] {
  const swe = join(folder, 'swe-agent-django');
  const tau = join(folder, 'tau-bench-airline');
  return [
    ...(existsSync(swe)
      ? readdirSync(swe)
          .filter((name) => name.endsWith('.traj.json'))
          .sort()
          .map((name) => join(swe, name))
      : []),
    ...(existsSync(tau)
      ? readdirSync(tau)
          .filter((name) => name.endsWith('.json'))
          .sort()
          .map((name) => join(tau, name))
      : []),
  ];
}

function outputOf(message: Message): string {
  return message.parts.map((part) => (part.type === 'tool-result' ? part.output : '')).join('');
}

const REPEATED = join(repoFixtures, 'swe-agent-django', 'django__django-11848.traj.json');

describe.runIf(existsSync(REPEATED))('a real transcript that reads django/utils/http.py eleven times', () => {
  it('keeps the latest view in full, folds earlier ones, keeps every name the final patch touches', async () => {
    const transcript = await readTranscript(REPEATED);
    const messages = transcript.conversations[0]!.messages;
    const result = await checkRealCompaction(provider, messages, logdir);

    const views = findCodeViews(messages).filter((view) => view.path?.endsWith('django/utils/http.py'));
    expect(views.length).toBeGreaterThanOrEqual(3);
    const latest = views[views.length - 1]!;
    expect(result.messages[latest.messageIndex]).toBe(messages[latest.messageIndex]);

    const references = views.slice(0, -1).filter((view) => outputOf(result.messages[view.messageIndex]!).includes('[earlier view of'));
    expect(references.length).toBeGreaterThanOrEqual(3);
    for (const view of references) {
      const target = Number(/latest view at message (\d+)/.exec(outputOf(result.messages[view.messageIndex]!))![1]);
      expect(target).toBeGreaterThan(view.messageIndex);
      expect(views.map((other) => other.messageIndex)).toContain(target);
      // The view a reference points to is kept as it was.
      expect(result.messages[target]).toBe(messages[target]);
    }

    // The pinned exit message carries the patch itself: probe everything else.
    const context = result.messages
      .filter((message) => !message.pinned)
      .map(renderMessage)
      .join('\n');
    const probes = finalPatchProbes(submissionOf(transcript.document)!);
    expect(probes.names.length).toBeGreaterThan(0);
    for (const name of probes.names) expect(context).toContain(name);
    for (const path of probes.paths) expect(context).toContain(path);
  });
});

describe('every repository transcript at half its tokens', () => {
  for (const file of transcriptsIn(repoFixtures)) {
    it(`keeps the rules on ${file.slice(repoFixtures.length + 1)}`, async () => {
      const transcript = await readTranscript(file);
      for (const conversation of transcript.conversations.slice(0, 5)) {
        await checkRealCompaction(provider, conversation.messages, logdir);
      }
    });
  }
});

describe.runIf(existsSync(sharedFixtures))('the shared SWE-agent transcripts at half their tokens', () => {
  it('keep the rules, and the final patch stays findable', async () => {
    const files = transcriptsIn(sharedFixtures).filter((file) => file.endsWith('.traj.json'));
    const removedShares: number[] = [];
    let probes = 0;
    let found = 0;
    for (const file of files) {
      const transcript = await readTranscript(file);
      const messages = transcript.conversations[0]!.messages;
      const result = await checkRealCompaction(provider, messages, logdir);
      removedShares.push(1 - result.stats.tokensAfter / result.stats.tokensBefore);
      const context = result.messages
        .filter((message) => !message.pinned)
        .map(renderMessage)
        .join('\n');
      const patch = finalPatchProbes(submissionOf(transcript.document) ?? '');
      for (const probe of [...patch.paths, ...patch.names]) {
        probes++;
        if (context.includes(probe)) found++;
      }
    }
    const sorted = [...removedShares].sort((a, b) => a - b);
    const median = (sorted[Math.floor((sorted.length - 1) / 2)]! + sorted[Math.ceil((sorted.length - 1) / 2)]!) / 2;
    console.info(
      `code-aware on ${files.length} shared transcripts at limit 50%: median ${(median * 100).toFixed(1)}% tokens removed (min ${(sorted[0]! * 100).toFixed(1)}%, max ${(sorted[sorted.length - 1]! * 100).toFixed(1)}%); final-patch paths and names present: ${found}/${probes}`,
    );
    expect(found).toBe(probes);
    expect(median).toBeGreaterThan(0);
  });
});
