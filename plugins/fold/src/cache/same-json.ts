/** True for a value `JSON.stringify` writes as its own fields: a plain object or an array. */
function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null || Array.isArray(value)) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/** What `JSON.stringify` writes of an object: its fields in order, those with no JSON form left out. */
function writtenKeys(value: object): string[] {
  return Object.keys(value).filter((key) => {
    const field = (value as Record<string, unknown>)[key];
    return field !== undefined && typeof field !== 'function' && typeof field !== 'symbol';
  });
}

/**
 * True when `JSON.stringify(a) === JSON.stringify(b)`, without writing either out: fields compared
 * in order, numbers as JSON writes them. Anything but plain objects, arrays and primitives (a Date,
 * a value with `toJSON`) is compared by writing it out.
 */
export function sameJson(left: unknown, right: unknown): boolean {
  // JSON writes NaN and ±Infinity as null.
  const a = typeof left === 'number' && !Number.isFinite(left) ? null : left;
  const b = typeof right === 'number' && !Number.isFinite(right) ? null : right;
  if (a === b) return true;
  // A Date or a value with `toJSON` writes what it says, even `null` (an invalid Date): written out.
  if ((typeof a === 'object' && a !== null && !isPlain(a)) || (typeof b === 'object' && b !== null && !isPlain(b))) {
    return JSON.stringify(a) === JSON.stringify(b);
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    // In an array, what has no JSON form is written as null.
    const item = (value: unknown): unknown => (value === undefined || typeof value === 'function' || typeof value === 'symbol' ? null : value);
    for (let index = 0; index < a.length; index++) if (!sameJson(item(a[index]), item(other[index]))) return false;
    return true;
  }
  const keys = writtenKeys(a);
  const otherKeys = writtenKeys(b);
  if (keys.length !== otherKeys.length) return false;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    if (key !== otherKeys[index] || !sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}
