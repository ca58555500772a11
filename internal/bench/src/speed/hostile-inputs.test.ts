import { describe, expect, it } from 'vitest';
import { nestedJson, nestedJsonInput, repeatedCharacterInput } from './hostile-inputs.js';

/** Nesting depth of a JSON value, without recursion. */
function depthOf(value: unknown): number {
  let depth = 0;
  let current = value;
  while (current !== null && typeof current === 'object') {
    depth += 1;
    current = (current as Record<string, unknown>)['a'];
  }
  return depth;
}

describe('hostile inputs', () => {
  it('puts the repeated characters in one tool result answering one call', () => {
    const input = repeatedCharacterInput(100_000);
    expect(input.name).toBe('repeated-100k');
    const result = input.messages.find((message) => message.role === 'tool')!;
    expect(result.content).toHaveLength(100_000);
    expect(new Set(result.content)).toEqual(new Set(['a']));
    const call = input.messages.find((message) => message.tool_calls)!.tool_calls![0]!;
    expect(result.tool_call_id).toBe(call.id);
    expect(repeatedCharacterInput(5_000_000).name).toBe('repeated-5m');
  });

  it('nests the arguments and the result exactly as deep as asked, as valid JSON', () => {
    expect(nestedJson(2)).toBe('{"a":{"a":1}}');
    const input = nestedJsonInput(5_000);
    expect(input.name).toBe('nested-5k');
    const call = input.messages.find((message) => message.tool_calls)!.tool_calls![0]!;
    expect(depthOf(JSON.parse(call.function.arguments))).toBe(5_000);
    expect(depthOf(JSON.parse(input.messages.find((message) => message.role === 'tool')!.content!))).toBe(5_000);
  });
});
