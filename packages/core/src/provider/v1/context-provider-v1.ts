import type { Message } from '../../messages/message.js';
import type { CompactionResult } from '../compaction-result.js';
import type { CompressionConfig } from '../compression-config.js';
import type { ProviderContext } from '../provider-context.js';

/**
 * A context compression strategy, spec v1 (as first shipped; it still loads: the host adapts it).
 * New providers implement `ContextProviderV2`.
 *
 * Call order (the host, e.g. `compactWith` or the runtime):
 * 1. `shouldCompress(messages, config, context)` — cheap; may be skipped on explicit requests.
 * 2. `compress(messages, config, context)` — returns a `CompactionResult`.
 * 3. The host validates the result (`validateCompaction`); on any broken rule it raises
 *    `InvalidProviderOutputError` and the caller keeps `messages`. Errors thrown inside
 *    `compress` are stamped with the provider's `name` (`ProviderExecutionError`).
 *
 * Contract: never edit system or user messages or pinned messages, keep roles, order, timestamps
 * and tool call / result pairing, and never return more tokens than were given. Content that is
 * removed should be saved under `config.logdir` and listed in `removed`.
 */
export interface ContextProviderV1 {
  readonly specificationVersion: 'v1';
  /** Unique name, used by `getContextProvider` and `--provider`. */
  readonly name: string;
  readonly description: string;
  /** Not part of v1 as first shipped: a v1 provider may declare it; the runtime reads it as v2's. */
  readonly usesModel?: boolean;
  shouldCompress(messages: readonly Message[], config: CompressionConfig, context: ProviderContext): boolean;
  compress(messages: readonly Message[], config: CompressionConfig, context: ProviderContext): Promise<CompactionResult>;
}

/** True when `value` looks like a v1 provider. */
export function isContextProviderV1(value: unknown): value is ContextProviderV1 {
  if (value == null || typeof value !== 'object') return false;
  const candidate = value as Partial<ContextProviderV1>;
  return (
    candidate.specificationVersion === 'v1' &&
    typeof candidate.name === 'string' &&
    typeof candidate.compress === 'function' &&
    typeof candidate.shouldCompress === 'function'
  );
}
