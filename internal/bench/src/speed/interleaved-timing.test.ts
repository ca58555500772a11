import { describe, expect, it } from 'vitest';
import { timeInterleaved } from './interleaved-timing.js';

describe('timeInterleaved', () => {
  it('arms and runs every participant once per round in the rotated order, after an untimed warm-up round', async () => {
    const log: string[] = [];
    const participant = (name: string) => ({
      name,
      arm: () => {
        log.push(`arm ${name}`);
        return () => log.push(`run ${name}`);
      },
    });
    const times = await timeInterleaved([participant('A'), participant('B'), participant('C')], { rounds: 2, warmUp: true });
    const runs = log.filter((entry) => entry.startsWith('run')).map((entry) => entry.slice(4));
    // Warm-up A B C (untimed), then round 0: A B C, round 1: B C A.
    expect(runs.join('')).toBe('ABCABCBCA');
    expect([...times.values()].map((entry) => entry.samples.length)).toEqual([2, 2, 2]);
  });

  it('runs a participant with fewer rounds only in the first of them', async () => {
    const runs: string[] = [];
    const participant = (name: string, rounds?: number) => ({ name, ...(rounds !== undefined ? { rounds } : {}), arm: () => () => runs.push(name) });
    const times = await timeInterleaved([participant('A'), participant('slow', 1)], { rounds: 3 });
    expect(runs.join(' ')).toBe('A slow A A');
    expect(times.get('slow')!.samples).toHaveLength(1);
  });

  it('leaves a participant whose state is complete once armed out of the warm-up round', async () => {
    const runs: string[] = [];
    await timeInterleaved(
      [
        { name: 'A', arm: () => () => runs.push('A') },
        { name: 'armed', skipWarmUp: true, arm: () => () => runs.push('armed') },
      ],
      { rounds: 1, warmUp: true },
    );
    expect(runs.join(' ')).toBe('A A armed');
  });

  it('awaits asynchronous calls and records the first error of a participant, then leaves it out', async () => {
    let calls = 0;
    const times = await timeInterleaved(
      [
        { name: 'slow', arm: () => () => new Promise((resolve) => setTimeout(resolve, 5)) },
        {
          name: 'broken',
          arm: () => () => {
            calls += 1;
            throw new Error('no such thing');
          },
        },
      ],
      { rounds: 3 },
    );
    expect(times.get('slow')!.samples).toHaveLength(3);
    expect(times.get('slow')!.samples.every((sample) => sample > 0)).toBe(true);
    expect(times.get('broken')).toEqual({ samples: [], error: 'no such thing' });
    expect(calls).toBe(1);
  });
});
