import type { Message, ToolCallPart, ToolResultPart } from '@ollm/core';
import { isCheckpointMessage } from '@ollm/core';

/** One tool result ("observation" in the JetBrains paper) and the call it answers. */
export interface Observation {
  readonly messageIndex: number;
  readonly partIndex: number;
  readonly result: ToolResultPart;
  /** The call this result answers, when it is in the conversation. */
  readonly call?: ToolCallPart;
  /** The result's own tool name, else its call's. */
  readonly toolName?: string;
  /**
   * False when the message holding it may not be edited: system, user (Anthropic carries tool
   * results in user messages) and pinned messages are kept byte-identical by contract.
   */
  readonly editable: boolean;
}

/** Every tool result of `messages`, in conversation order. */
export function findObservations(messages: readonly Message[]): Observation[] {
  const calls = new Map<string, ToolCallPart>();
  const observations: Observation[] = [];
  for (const [messageIndex, message] of messages.entries()) {
    const editable = !message.pinned && message.role !== 'system' && message.role !== 'user' && !isCheckpointMessage(message);
    for (const [partIndex, part] of message.parts.entries()) {
      if (part.type === 'tool-call') {
        calls.set(part.callId, part);
      } else if (part.type === 'tool-result') {
        const call = calls.get(part.callId);
        const toolName = part.name ?? call?.name;
        observations.push({
          messageIndex,
          partIndex,
          result: part,
          ...(call ? { call } : {}),
          ...(toolName !== undefined ? { toolName } : {}),
          editable,
        });
      }
    }
  }
  return observations;
}
