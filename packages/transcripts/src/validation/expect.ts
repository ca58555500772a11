import { isRecord } from '../json/order-like.js';
import { invalidTranscript } from './invalid-transcript.js';

/** Type checks that name the file and position of a wrong value. */
export function expectRecord(value: unknown, file: string, position: string, what: string): Record<string, unknown> {
  if (!isRecord(value)) throw invalidTranscript(file, position, `${what} must be an object, got ${describeType(value)}`);
  return value;
}

export function expectArray(value: unknown, file: string, position: string, what: string): unknown[] {
  if (!Array.isArray(value)) throw invalidTranscript(file, position, `${what} must be an array, got ${describeType(value)}`);
  return value;
}

export function expectString(value: unknown, file: string, position: string, what: string): string {
  if (typeof value !== 'string') throw invalidTranscript(file, position, `${what} must be a string, got ${describeType(value)}`);
  return value;
}

export function optionalString(value: unknown, file: string, position: string, what: string): string | undefined {
  return value === undefined ? undefined : expectString(value, file, position, what);
}

export function describeType(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
