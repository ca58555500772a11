import { ownField, setField } from './own-fields.js';

/**
 * Returns `value` with its keys in the order `template` had them (keys new to `value` last), so
 * a written file diffs cleanly against its source. Keys `value` lacks are not brought back. Every
 * key is data, `__proto__` and `constructor` included (see own-fields.ts).
 */
export function orderLike<T extends Record<string, unknown>>(value: T, template: unknown): T {
  if (!isRecord(template)) return value;
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(template)) {
    const member = ownField(value, key);
    if (member !== undefined) setField(ordered, key, member);
  }
  for (const [key, member] of Object.entries(value)) if (!Object.hasOwn(ordered, key) && member !== undefined) setField(ordered, key, member);
  return ordered as T;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
