/**
 * A wire message as JSON for comparing two requests' messages: `cache_control` left out at any
 * depth. Claude Code moves its cache breakpoint to the newest message every turn, so the message
 * that was newest in one request carries one and is otherwise the same in the next; compared
 * byte for byte, no request would ever share a prefix with the one before.
 */
export function messageKey(message: unknown): string {
  return JSON.stringify(message, (key, value: unknown) => (key === 'cache_control' ? undefined : value)) ?? 'null';
}
