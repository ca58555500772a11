import { renderMessage, type Message } from '@ollm/core';
import type { BenchConversation } from './fixture-set.js';
import type { Probe } from './probe.js';
import { sweAgentProbes } from './swe-agent-probes.js';
import { tauBenchProbes } from './tau-bench-probes.js';

/**
 * All the text a model would see (message text, reasoning, tool calls and results), except the
 * pinned SWE-agent `exit` message: it is the final patch itself, so searching it would make every
 * patch probe survive whatever a strategy did.
 */
export function searchableText(messages: readonly Message[]): string {
  return messages
    .filter((message) => message.metadata?.['sourceRole'] !== 'exit')
    .map(renderMessage)
    .join('\n');
}

const WORD_CHARACTER = /[A-Za-z0-9_]/;

/** True when `probe` occurs in `text` as a whole token (`250` does not match inside `2500`). */
export function containsProbe(text: string, probe: string): boolean {
  let from = 0;
  for (;;) {
    const index = text.indexOf(probe, from);
    if (index === -1) return false;
    const before = text[index - 1];
    const after = text[index + probe.length];
    const startsClean = before === undefined || !WORD_CHARACTER.test(before) || !WORD_CHARACTER.test(probe[0]!);
    const endsClean = after === undefined || !WORD_CHARACTER.test(after) || !WORD_CHARACTER.test(probe[probe.length - 1]!);
    if (startsClean && endsClean) return true;
    from = index + 1;
  }
}

export interface Retention {
  /** Probes found in the uncompressed context; only these can be retained. */
  readonly available: number;
  readonly retained: number;
  /** retained / available; undefined when no probe was available. */
  readonly share: number | undefined;
  readonly lost: readonly Probe[];
  /** Probes available in the uncompressed context, per kind. */
  readonly availableByKind: Readonly<Record<string, number>>;
}

/** Share of the probes present in the original context that are still present after compaction. */
export function measureRetention(probes: readonly Probe[], originalText: string, compactedText: string): Retention {
  const available = probes.filter((probe) => containsProbe(originalText, probe.text));
  const lost = available.filter((probe) => !containsProbe(compactedText, probe.text));
  const retained = available.length - lost.length;
  const availableByKind: Record<string, number> = {};
  for (const probe of available) availableByKind[probe.kind] = (availableByKind[probe.kind] ?? 0) + 1;
  return { available: available.length, retained, share: available.length === 0 ? undefined : retained / available.length, lost, availableByKind };
}

export function probesOf(conversation: BenchConversation): Probe[] {
  return conversation.kind === 'swe-agent' ? sweAgentProbes(conversation) : tauBenchProbes(conversation);
}
