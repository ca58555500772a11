import { CHAT_PATHS } from './chat-requests.js';
import type { FaultInput } from './fault.js';

/** How a model-backed provider must end under a fault: a typed error, the unchanged input, or a compaction. */
export type FaultExpectation = 'typed-error' | 'unchanged' | 'compacted';

export interface FaultCase {
  readonly name: string;
  readonly fault: FaultInput | readonly FaultInput[];
  readonly expect: FaultExpectation;
  /** e.g. `model-unavailable`, `model-response` */
  readonly code?: string;
  readonly timeoutMs?: number;
}

/**
 * Every fault of the server on chat requests, with how a provider calling the model must end
 * (describe() is not what is under test here). Shared by the model-backed plugins' fault tests.
 */
export const FAULT_CASES: readonly FaultCase[] = [
  { name: 'refused connection', fault: { kind: 'refuse' }, expect: 'typed-error', code: 'model-unavailable' },
  { name: '500 on every attempt', fault: { kind: 'status-500', times: 'always', paths: CHAT_PATHS }, expect: 'typed-error', code: 'model-response' },
  { name: '500 once, then a retry succeeds', fault: { kind: 'status-500', paths: CHAT_PATHS }, expect: 'compacted' },
  { name: '429 with retry-after, then a retry succeeds', fault: { kind: 'status-429', retryAfterSeconds: 1, paths: CHAT_PATHS }, expect: 'compacted' },
  {
    name: 'hang past a short timeout',
    fault: { kind: 'hang', times: 'always', paths: CHAT_PATHS },
    expect: 'typed-error',
    code: 'model-unavailable',
    timeoutMs: 400,
  },
  { name: 'malformed body', fault: { kind: 'malformed', times: 'always', paths: CHAT_PATHS }, expect: 'typed-error', code: 'model-response' },
  { name: 'cut stream', fault: { kind: 'cut-stream', times: 'always', paths: CHAT_PATHS }, expect: 'typed-error' },
  { name: 'wrong shape', fault: { kind: 'wrong-shape', times: 'always', paths: CHAT_PATHS }, expect: 'typed-error', code: 'model-response' },
  { name: 'empty reply', fault: { kind: 'empty', times: 'always', paths: CHAT_PATHS }, expect: 'unchanged' },
  { name: 'reply longer than its input', fault: { kind: 'too-long', times: 'always', paths: CHAT_PATHS }, expect: 'compacted' },
];
