/**
 * Returns `value` with its keys in the order `template` had them (keys new to `value` last), so
 * a written file diffs cleanly against its source. Keys `value` lacks are not brought back.
 */
export function orderLike<T extends Record<string, unknown>>(value: T, template: unknown): T {
  if (template === null || typeof template !== 'object' || Array.isArray(template)) return value;
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(template)) if (key in value && value[key] !== undefined) ordered[key] = value[key];
  for (const [key, member] of Object.entries(value)) if (!(key in ordered) && member !== undefined) ordered[key] = member;
  return ordered as T;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
