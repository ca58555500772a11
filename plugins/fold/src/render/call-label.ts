import type { Message, ToolCallPart } from '@ollm/core';
import { argumentStrings } from '../identifiers/visible-text.js';

/** The first line of a call's first string argument (the command), at most `characters` long; else its tool name. */
export function callLabel(part: ToolCallPart, characters: number): string {
  const strings: string[] = [];
  argumentStrings(part.input ?? part.rawInput, strings);
  const first = strings.find((text) => text.trim().length > 0);
  if (first === undefined) return part.name;
  const line = first.trimStart().split('\n', 1)[0]!.trimEnd();
  return line.length > characters ? `${line.slice(0, characters)}…` : line;
}

/** `exit 1` from a mini-swe-agent `<returncode>1</returncode>` or `exit code 1`; undefined when the output does not say. */
export function exitStatus(output: string): number | undefined {
  const match = /<returncode>(-?\d+)<\/returncode>|\bexit(?:ed with)? code:? (-?\d+)/.exec(output.slice(0, 200));
  return match ? Number(match[1] ?? match[2]) : undefined;
}

/** The call a tool message answers, in the assistant message before it. */
export function callFor(messages: readonly Message[], position: number, callId: string): ToolCallPart | undefined {
  for (let at = position - 1; at >= 0 && at >= position - 64; at--) {
    for (const part of messages[at]!.parts) if (part.type === 'tool-call' && part.callId === callId) return part;
    if (messages[at]!.role !== 'tool') break;
  }
  return undefined;
}
