import type { ToolCallPart } from '@ollm/core';
import { shorten } from './describe-output.js';

/** Longest call description kept in a placeholder: the full call stays in the context anyway. */
const CALL_CHARACTERS = 80;

/**
 * The call as a placeholder names it: `bash: <command>` for a shell tool (its `command`
 * argument), else `name {arguments}` in compact JSON, cut to one short line.
 */
export function describeCall(toolName: string | undefined, call: ToolCallPart | undefined): string {
  const name = toolName ?? call?.name ?? 'tool';
  if (!call) return name;
  const input = call.input;
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) {
    const command = (input as Record<string, unknown>)['command'];
    if (typeof command === 'string') return `${name}: ${shorten(command, CALL_CHARACTERS)}`;
  }
  const argumentsText = input === undefined || input === null ? (call.rawInput ?? '') : JSON.stringify(input);
  return argumentsText.length === 0 ? name : `${name} ${shorten(argumentsText, CALL_CHARACTERS)}`;
}
