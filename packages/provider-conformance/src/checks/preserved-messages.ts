import { canonicalJson, type CompactionResult, type Message } from '@ollm/core';
import type { ConformanceFailure } from '../conformance-failure.js';

/** Why an input message must come through untouched, or undefined when a provider may change it. */
function protectionOf(message: Message): string | undefined {
  if (message.pinned) return 'pinned';
  if (message.role === 'system' || message.role === 'user') return message.role;
  return undefined;
}

/**
 * Every system, user and pinned input message is in the output under its id with every field
 * identical (metadata included: transcript writers restore it). Only user messages declared in
 * `folded` may be absent; a pinned or system message never may.
 */
export function findPreservationFailures(input: readonly Message[], result: CompactionResult): ConformanceFailure[] {
  const failures: ConformanceFailure[] = [];
  const outputById = new Map(result.messages.map((message) => [message.id, message] as const));
  const folded = new Set((result.folded ?? []).map((entry) => entry.messageId));
  for (const [index, original] of input.entries()) {
    const protection = protectionOf(original);
    if (protection === undefined) continue;
    const kept = outputById.get(original.id);
    if (kept === undefined) {
      const mayFold = protection === 'user' && folded.has(original.id);
      if (!mayFold) {
        failures.push({ check: 'messages-preserved', detail: `${protection} message ${index} ("${original.id}") is missing from the output` });
      }
    } else if (kept !== original && canonicalJson(kept) !== canonicalJson(original)) {
      failures.push({ check: 'messages-preserved', detail: `${protection} message ${index} ("${original.id}") was changed` });
    }
  }
  return failures;
}
