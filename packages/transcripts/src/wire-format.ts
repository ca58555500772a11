import type { Message } from '@ollm/core';

/** The chat formats whose requests carry a `messages` array a model server reads. */
export type WireFormat = 'openai' | 'ollama' | 'anthropic' | 'responses';

/** Chat messages as a model server receives them, read into ollm messages and written back. */
export interface WireMessages {
  readonly messages: readonly Message[];
  /**
   * `messages` (or a compaction of them) in the wire format: a message that kept its id is
   * written over the wire message it was read from (keeping every field ollm does not model);
   * a new one is written plainly.
   */
  write(messages: readonly Message[]): unknown[];
}
