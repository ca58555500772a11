import { SPEED_PARTS, type SpeedPart } from './speed-report.js';

/** What `--only` runs: the speed section (all of it or some parts), the serve section or the middleware section. */
export type OnlySelection = { readonly section: 'speed'; readonly parts: Set<SpeedPart> } | { readonly section: 'serve' } | { readonly section: 'middleware' };

/**
 * `--only speed` (every part of the speed section), `--only speed:scaling,cli`, `--only serve` or
 * `--only middleware`;
 * anything else is a usage error, returned as its message.
 */
export function parseOnly(text: string): OnlySelection | string {
  if (text.trim() === 'serve') return { section: 'serve' };
  if (text.trim() === 'middleware') return { section: 'middleware' };
  const [section, list] = text.split(':', 2) as [string, string | undefined];
  if (section !== 'speed') return `--only takes "speed", "speed:PART,PART" (parts: ${SPEED_PARTS.join(', ')}), "serve" or "middleware", not "${text}"`;
  if (list === undefined || list.trim() === '') return { section: 'speed', parts: new Set(SPEED_PARTS) };
  const names = list.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(SPEED_PARTS as readonly string[]).includes(name));
  if (unknown.length > 0) return `unknown speed part${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (parts: ${SPEED_PARTS.join(', ')})`;
  return { section: 'speed', parts: new Set(names as SpeedPart[]) };
}
