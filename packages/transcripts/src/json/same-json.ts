import { ownField } from './own-fields.js';

/**
 * Deep equality of JSON-like values (plain objects, arrays, primitives; undefined members
 * ignored). Iterative, so any depth compares without growing the call stack.
 */
export function sameJson(left: unknown, right: unknown): boolean {
  const pending: [unknown, unknown][] = [[left, right]];
  while (pending.length > 0) {
    const [a, b] = pending.pop()!;
    if (a === b) continue;
    if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) return false;
      for (let index = 0; index < a.length; index += 1) pending.push([a[index], b[index]]);
      continue;
    }
    const aEntries = Object.entries(a).filter(([, member]) => member !== undefined);
    const bCount = Object.values(b).filter((member) => member !== undefined).length;
    if (aEntries.length !== bCount) return false;
    for (const [key, member] of aEntries) pending.push([member, ownField(b, key)]);
  }
  return true;
}
