/**
 * True when arrays and objects in `value` nest more than `limit` levels (the value itself is
 * level 1). Iterative, so it answers for any depth: code that walks parsed JSON recursively (a
 * tool output's skeleton, its facts) asks it first, since `JSON.parse` reads a document nested
 * 100,000 deep that a recursive walk cannot.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > limit) return true;
    for (const member of Array.isArray(current) ? current : Object.values(current)) {
      if (member !== null && typeof member === 'object') {
        values.push(member);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
