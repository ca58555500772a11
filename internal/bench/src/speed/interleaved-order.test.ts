import { describe, expect, it } from 'vitest';
import { interleavedOrder } from './interleaved-order.js';

describe('interleavedOrder', () => {
  it('runs every contender once per round and rotates the order one step per round', () => {
    expect([0, 1, 2, 3].map((round) => interleavedOrder(3, round))).toEqual([
      [0, 1, 2],
      [1, 2, 0],
      [2, 0, 1],
      [0, 1, 2],
    ]);
  });

  it('puts each contender first equally often over a multiple of the count', () => {
    const firsts = Array.from({ length: 12 }, (_, round) => interleavedOrder(4, round)[0]);
    expect([0, 1, 2, 3].map((index) => firsts.filter((first) => first === index).length)).toEqual([3, 3, 3, 3]);
  });

  it('handles one and zero contenders and refuses nonsense', () => {
    expect(interleavedOrder(1, 5)).toEqual([0]);
    expect(interleavedOrder(0, 2)).toEqual([]);
    expect(() => interleavedOrder(-1, 0)).toThrow(RangeError);
    expect(() => interleavedOrder(2, 1.5)).toThrow(RangeError);
  });
});
