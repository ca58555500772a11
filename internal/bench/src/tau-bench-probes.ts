import type { BenchConversation } from './fixture-set.js';
import { addProbe, type Probe } from './probe.js';

const PROBE_KEYS: Readonly<Record<string, Probe['kind']>> = {
  user_id: 'user-id',
  reservation_id: 'reservation-id',
  amount: 'amount',
};

function collect(value: unknown, probes: Probe[]): void {
  if (Array.isArray(value)) {
    for (const item of value) collect(item, probes);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, entry] of Object.entries(value)) {
    const kind = PROBE_KEYS[key];
    if (kind && (typeof entry === 'string' || typeof entry === 'number')) addProbe(probes, kind, String(entry));
    else collect(entry, probes);
  }
}

/** The user id, reservation ids and amounts in the expected actions (`info.task.actions[*].kwargs`). */
export function tauBenchProbes(conversation: BenchConversation): Probe[] {
  const source = conversation.source as { info?: { task?: { user_id?: string; actions?: { kwargs?: unknown }[] } } };
  const probes: Probe[] = [];
  const task = source.info?.task;
  if (task?.user_id) addProbe(probes, 'user-id', task.user_id);
  for (const action of task?.actions ?? []) collect(action.kwargs, probes);
  return probes;
}
