import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../fixture-set.js';
import { measureProcesses, type ProcessTranscript } from './process-workload.js';

const transcript = (name: string, tokens: number): ProcessTranscript => ({
  id: name,
  path: join(REPOSITORY_ROOT, 'fixtures', 'swe-agent-django', `${name}.traj.json`),
  format: 'swe-agent',
  tokens,
});

describe('measureProcesses', () => {
  it('runs every contender in cold and fresh processes, round after round, and keeps the medians of each', () => {
    const measured = transcript('django__django-14915', 14_608);
    const warmUp = transcript('django__django-11999', 18_553);
    const progress: string[] = [];
    const cases = measureProcesses([measured], ['floor', 'trim'], {
      budget: 0.5,
      rounds: 3,
      timeoutSeconds: 60,
      warmUpFor: () => warmUp,
      onConversation: (done, total) => progress.push(`${done}/${total}`),
    });
    expect(cases.map((entry) => `${entry.kind} ${entry.contender}`).sort()).toEqual(['cold floor', 'cold trim', 'fresh floor', 'fresh trim']);
    for (const entry of cases) {
      expect(entry.error).toBeUndefined();
      expect(entry.samples).toBe(3);
      expect(entry.firstCallMs).toBeGreaterThan(0);
      expect(entry.importMs).toBeGreaterThan(0);
    }
    expect(progress).toEqual(['1/3', '2/3', '3/3']);
  });

  it('times the fresh-only contenders in fresh processes only (the code parse)', () => {
    const cases = measureProcesses([transcript('django__django-14915', 14_608)], ['floor', 'code-parse'], {
      budget: 0.5,
      rounds: 1,
      timeoutSeconds: 60,
      warmUpFor: () => transcript('django__django-11999', 18_553),
      freshOnly: ['code-parse'],
    });
    expect(cases.map((entry) => `${entry.kind} ${entry.contender}`).sort()).toEqual(['cold floor', 'fresh code-parse', 'fresh floor']);
    for (const entry of cases) expect(entry.error).toBeUndefined();
  });

  it('reports a contender that fails once, with its error, and measures it no more', () => {
    const cases = measureProcesses([transcript('django__django-14915', 14_608)], ['no-such-provider'], {
      budget: 0.5,
      rounds: 2,
      timeoutSeconds: 60,
      warmUpFor: (entry) => entry,
    });
    expect(cases).toHaveLength(2);
    for (const entry of cases) {
      expect(entry.error).toMatch(/exit 1/);
      expect(entry.samples).toBeUndefined();
    }
  });
});
