/**
 * Field access that treats every key as data. A parsed document may hold fields named like
 * `Object.prototype` members (`JSON.parse` makes `__proto__`, `constructor`, `toString` own
 * fields): `record[key] = value` calls the `__proto__` setter instead of adding the field, and
 * `key in record` or `record[key]` see the inherited members, so code using them drops or
 * invents such fields. Readers and writers copy fields through these instead.
 */

/** The record's own field `key`, or undefined (never an inherited member). */
export function ownField(record: object, key: string): unknown {
  return Object.hasOwn(record, key) ? (record as Record<string, unknown>)[key] : undefined;
}

/** Sets `key` as an own, enumerable field (as `JSON.parse` and object spread do), whatever its name. */
export function setField(record: Record<string, unknown>, key: string, value: unknown): void {
  // Only `__proto__` is an accessor on Object.prototype; assigning any other name makes an own field.
  if (key === '__proto__') Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
  else record[key] = value;
}
