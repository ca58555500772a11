import { canonicalJson, type Message } from '@ollm/core';
import type { ConformanceFailure } from '../conformance-failure.js';

/** The input as it was before the provider ran: the array's elements and each message's full form. */
export interface InputSnapshot {
  readonly elements: readonly Message[];
  readonly forms: readonly string[];
}

/**
 * Captures every field of every message (ids and metadata too, not only the canonical form the
 * digest uses), so any in-place edit a provider makes shows up.
 */
export function snapshotInput(messages: readonly Message[]): InputSnapshot {
  return { elements: [...messages], forms: messages.map((message) => canonicalJson(message)) };
}

export function findInputMutations(snapshot: InputSnapshot, messages: readonly Message[]): ConformanceFailure[] {
  const failures: ConformanceFailure[] = [];
  if (messages.length !== snapshot.elements.length) {
    failures.push({ check: 'input-unchanged', detail: `the input array changed length ${snapshot.elements.length} -> ${messages.length}` });
  }
  const count = Math.min(messages.length, snapshot.elements.length);
  for (let index = 0; index < count; index += 1) {
    const message = messages[index]!;
    if (message !== snapshot.elements[index]) {
      failures.push({ check: 'input-unchanged', detail: `input[${index}] was replaced by another object` });
    } else if (canonicalJson(message) !== snapshot.forms[index]) {
      failures.push({ check: 'input-unchanged', detail: `input message ${index} ("${message.id}") was mutated in place` });
    }
  }
  return failures;
}
