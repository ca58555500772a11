import { SPEED_PARTS, type SpeedPart } from './speed-report.js';

/**
 * `--only speed` (every part of the speed section) or `--only speed:scaling,cli`; anything else
 * is a usage error, returned as its message.
 */
export function parseOnly(text: string): Set<SpeedPart> | string {
  const [section, list] = text.split(':', 2) as [string, string | undefined];
  if (section !== 'speed') return `--only takes "speed" or "speed:PART,PART" (parts: ${SPEED_PARTS.join(', ')}), not "${text}"`;
  if (list === undefined || list.trim() === '') return new Set(SPEED_PARTS);
  const names = list.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(SPEED_PARTS as readonly string[]).includes(name));
  if (unknown.length > 0) return `unknown speed part${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (parts: ${SPEED_PARTS.join(', ')})`;
  return new Set(names as SpeedPart[]);
}
