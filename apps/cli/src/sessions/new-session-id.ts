import { randomBytes } from 'node:crypto';

/** A sortable, readable session id: `20261130-061702-3f2a` (UTC time, then 4 random hex digits). */
export function newSessionId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}
