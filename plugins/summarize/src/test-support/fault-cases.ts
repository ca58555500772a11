import type { FaultInput } from '@ollm/fake-model-server';

/** How a provider must end under a fault: a typed error, the unchanged input, or a compaction. */
export type FaultExpectation = 'typed-error' | 'unchanged' | 'compacted';

export interface FaultCase {
  readonly name: string;
  readonly fault: FaultInput | readonly FaultInput[];
  readonly expect: FaultExpectation;
  /** e.g. `model-unavailable`, `model-response` */
  readonly code?: string;
  readonly timeoutMs?: number;
}

const CHAT = ['/api/chat', '/v1/chat/completions'];

/** Every fault of the fake server, on chat requests (describe() is not what is under test here). */
export const FAULT_CASES: readonly FaultCase[] = [
  { name: 'refused connection', fault: { kind: 'refuse' }, expect: 'typed-error', code: 'model-unavailable' },
  { name: '500 on every attempt', fault: { kind: 'status-500', times: 'always', paths: CHAT }, expect: 'typed-error', code: 'model-response' },
  { name: '500 once, then a retry succeeds', fault: { kind: 'status-500', paths: CHAT }, expect: 'compacted' },
  { name: '429 with retry-after, then a retry succeeds', fault: { kind: 'status-429', retryAfterSeconds: 1, paths: CHAT }, expect: 'compacted' },
  { name: 'hang past a short timeout', fault: { kind: 'hang', times: 'always', paths: CHAT }, expect: 'typed-error', code: 'model-unavailable', timeoutMs: 400 },
  { name: 'malformed body', fault: { kind: 'malformed', times: 'always', paths: CHAT }, expect: 'typed-error', code: 'model-response' },
  { name: 'cut stream', fault: { kind: 'cut-stream', times: 'always', paths: CHAT }, expect: 'typed-error' },
  { name: 'wrong shape', fault: { kind: 'wrong-shape', times: 'always', paths: CHAT }, expect: 'typed-error', code: 'model-response' },
  { name: 'empty reply', fault: { kind: 'empty', times: 'always', paths: CHAT }, expect: 'unchanged' },
  { name: 'reply longer than its input', fault: { kind: 'too-long', times: 'always', paths: CHAT }, expect: 'compacted' },
];
