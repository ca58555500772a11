/**
 * A fact a compacted context should still hold, taken from ground truth (the final patch, the
 * harness report, the task, the expected actions), never written by hand.
 */
export interface Probe {
  readonly kind: 'file' | 'symbol' | 'failing-test' | 'task-identifier' | 'user-id' | 'reservation-id' | 'amount';
  readonly text: string;
}

/** Adds a probe unless one with the same kind and text is there already. */
export function addProbe(probes: Probe[], kind: Probe['kind'], text: string): void {
  const trimmed = text.trim();
  if (trimmed.length === 0) return;
  if (probes.some((probe) => probe.kind === kind && probe.text === trimmed)) return;
  probes.push({ kind, text: trimmed });
}
