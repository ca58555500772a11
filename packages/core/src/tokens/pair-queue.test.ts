import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PairQueue } from './pair-queue.js';

describe('PairQueue', () => {
  it('takes pairs lowest rank first, then lowest start, whatever order they were added in', () => {
    const operation = fc.oneof(
      fc.record({ add: fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 60 })) }),
      fc.record({ take: fc.constant(true) }),
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 300 }), (operations) => {
        const queue = new PairQueue();
        const reference: [number, number][] = [];
        const taken = (): [number, number] | undefined => {
          reference.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
          return reference.shift();
        };
        for (const step of [...operations, ...Array.from({ length: 300 }, () => ({ take: true as const }))]) {
          if ('add' in step) {
            queue.add(step.add[0], step.add[1]);
            reference.push([step.add[0], step.add[1]]);
            continue;
          }
          const expected = taken();
          const part = queue.take();
          if (expected === undefined) expect(part).toBe(-1);
          else expect([queue.rank, part]).toEqual(expected);
        }
      }),
    );
  });

  it('keeps a rank in order as a queue and returns -1 when empty', () => {
    const queue = new PairQueue();
    for (let part = 0; part < 1_000; part++) queue.add(7, part);
    queue.add(3, 500);
    expect([queue.take(), queue.rank]).toEqual([500, 3]);
    for (let part = 0; part < 1_000; part++) expect(queue.take()).toBe(part);
    expect(queue.take()).toBe(-1);
  });
});
