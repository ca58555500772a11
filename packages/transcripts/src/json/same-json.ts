/** Deep equality of JSON-like values (plain objects, arrays, primitives; undefined members ignored). */
export function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (left === null || right === null || typeof left !== 'object' || typeof right !== 'object') return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left) && Array.isArray(right)) {
    return left.length === right.length && left.every((item, index) => sameJson(item, right[index]));
  }
  const leftEntries = Object.entries(left).filter(([, member]) => member !== undefined);
  const rightRecord = right as Record<string, unknown>;
  const rightCount = Object.values(rightRecord).filter((member) => member !== undefined).length;
  return leftEntries.length === rightCount && leftEntries.every(([key, member]) => sameJson(member, rightRecord[key]));
}
