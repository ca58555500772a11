import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BestFirst } from './best-first.js';

interface Item {
  readonly key: number;
  readonly slack: number;
}

function drain<T>(order: BestFirst<T>): T[] {
  const items: T[] = [];
  for (let item = order.next(); item !== undefined; item = order.next()) items.push(item);
  return items;
}

describe('BestFirst', () => {
  it('gives the items in the order of a sort by key (highest first), ties by lowest index, whatever the bounds above the keys', () => {
    const item = fc.record({
      key: fc.oneof(fc.integer({ min: 0, max: 5 }), fc.double({ min: 0, max: 1e6, noNaN: true })),
      slack: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 3 }), fc.double({ min: 0, max: 1e6, noNaN: true })),
    });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 60 }), (items) => {
        const sorted = items.map((value, index) => ({ value, index })).sort((a, b) => b.value.key - a.value.key || a.index - b.index);
        const order = new BestFirst(
          items,
          (value) => value.key + value.slack,
          (value) => value.key,
        );
        expect(drain(order)).toEqual(sorted.map(({ value }) => value));
      }),
      { numRuns: 1000 },
    );
  });

  it('breaks ties by the index it is given', () => {
    const order = new BestFirst(
      ['a', 'b', 'c'],
      () => 1,
      () => 1,
      (_, position) => -position,
    );
    expect(drain(order)).toEqual(['c', 'b', 'a']);
  });

  it('works out the keys only of the items that could come next', () => {
    const evaluated: number[] = [];
    const items: Item[] = Array.from({ length: 100 }, (_, index) => ({ key: 100 - index, slack: 1.5 }));
    const order = new BestFirst(
      items,
      (value) => value.key + value.slack,
      (value) => {
        evaluated.push(value.key);
        return value.key;
      },
    );
    expect(order.next()).toBe(items[0]);
    expect(order.next()).toBe(items[1]);
    // The first two, and the third whose bound passed the second's key.
    expect(evaluated).toEqual([100, 99, 98]);
    expect(order.size).toBe(98);
  });
});
