import type { ContextEventName, ContextEvents, ContextManager } from '@ollm/runtime';

const RECORDED: readonly ContextEventName[] = [
  'compacted',
  'compaction-skipped',
  'compaction-error',
  'circuit-open',
  'rollover-complete',
  'checkpoint-created',
  'checkpoint-aged',
  'user-messages-folded',
  'snapshot-created',
  'snapshot-restored',
  'snapshot-error',
  'auto-snapshot-created',
  'goal-updated',
];

export interface LoggedEvent<Name extends ContextEventName = ContextEventName> {
  readonly name: Name;
  readonly payload: ContextEvents[Name];
}

/** Records every event a manager emits, in order, for assertions and reports. */
export class EventLog {
  readonly events: LoggedEvent[] = [];

  constructor(manager: ContextManager) {
    for (const name of RECORDED) manager.on(name, (payload) => this.events.push({ name, payload } as LoggedEvent));
  }

  count(name: ContextEventName): number {
    return this.events.filter((event) => event.name === name).length;
  }

  of<Name extends ContextEventName>(name: Name): ContextEvents[Name][] {
    return this.events.filter((event): event is LoggedEvent<Name> => event.name === name).map((event) => event.payload);
  }
}
