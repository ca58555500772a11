import { InvalidArgumentError } from '@ollm/core';

const DIGEST = /^[0-9a-f]{64}$/;
const DIGEST_PREFIX = /^[0-9a-f]{1,64}$/;

/**
 * `key` when it is a sha256 in lower-case hex (compaction keys, lock keys and removed content
 * are all named so); anything else is refused before it can become a file name or a Redis key
 * (`../x`, a glob, an empty string).
 */
export function checkStoreKey(argument: string, key: string): string {
  if (typeof key !== 'string' || !DIGEST.test(key)) {
    throw new InvalidArgumentError({ argument, message: `${argument} must be a sha256 (64 lower-case hexadecimal digits), got ${JSON.stringify(key)}` });
  }
  return key;
}

/** `prefix` when it is 1 to 64 lower-case hexadecimal digits (the start of a sha256). */
export function checkStoreKeyPrefix(argument: string, prefix: string): string {
  if (typeof prefix !== 'string' || !DIGEST_PREFIX.test(prefix)) {
    throw new InvalidArgumentError({ argument, message: `${argument} must be 1 to 64 lower-case hexadecimal digits, got ${JSON.stringify(prefix)}` });
  }
  return prefix;
}

/** A lock's lifetime in whole milliseconds, at least 1. */
export function checkLockTtl(ttlMs: number): number {
  if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new InvalidArgumentError({ argument: 'ttlMs', message: `a lock's ttlMs must be a positive number of milliseconds, got ${String(ttlMs)}` });
  }
  return Math.ceil(ttlMs);
}
