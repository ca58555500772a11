/**
 * Preloaded into the `ollm` binary by record-docs (`node --import …/fixed-clock.js bin.js`): the
 * clock stands still at `OLLM_DOCS_CLOCK` (default 2026-11-30T06:36:18Z) and `randomUUID` counts
 * instead of drawing, so a recorded session prints the same snapshot ids and times on every run.
 * Nothing else about the binary changes. Never used outside the docs recordings.
 */
import crypto, { createHash } from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';

const RealDate = Date;
const fixed = RealDate.parse(process.env['OLLM_DOCS_CLOCK'] ?? '2026-11-30T06:36:18.000Z');

/** `new Date()` and `Date.now()` give the fixed time; `new Date(value)` and the rest behave as usual. */
const FixedDate = new Proxy(RealDate, {
  construct: (target, args: unknown[]) => (args.length === 0 ? new target(fixed) : new target(...(args as [string]))),
  apply: () => new RealDate(fixed).toString(),
  get: (target, property, receiver) => (property === 'now' ? () => fixed : Reflect.get(target, property, receiver)),
});
globalThis.Date = FixedDate;

let drawn = 0;
/** A version-4-shaped UUID from a counter: the same sequence on every run. */
crypto.randomUUID = () => {
  drawn += 1;
  const hex = createHash('sha256').update(`ollm-docs:${drawn}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};
// Modules that `import { randomUUID } from 'node:crypto'` see the replacement too.
syncBuiltinESMExports();
