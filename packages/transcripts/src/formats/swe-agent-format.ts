import type { Message } from '@ollm/core';
import { isRecord } from '../json/order-like.js';
import { readOpenAIConversation, writeOpenAIConversation } from '../openai-chat/openai-conversation.js';
import { expectArray, expectRecord } from '../validation/expect.js';
import type { FormatCodec } from './format-codec.js';

/**
 * SWE-agent / mini-swe-agent trajectories (`*.traj.json`): `{instance_id, info, messages,
 * trajectory_format}` with OpenAI chat messages, an `exit` role holding the final patch, and an
 * `extra` field per message (raw API response / raw tool output) that is not model input.
 */
export const sweAgentFormat: FormatCodec = {
  format: 'swe-agent',
  syntax: 'json',
  read(document, file) {
    const trajectory = expectRecord(document, file, 'line 1', 'a trajectory');
    const values = expectArray(trajectory.messages, file, 'messages', '"messages"');
    const { messages, sources } = readOpenAIConversation(values, { file, roles: { exit: 'assistant' }, adjust: adjustSweAgentMessage });
    const id = typeof trajectory.instance_id === 'string' ? trajectory.instance_id : 'trajectory';
    return [{ id, messages, sources }];
  },
  write(document, conversations, sources) {
    const messages = writeOpenAIConversation(conversations[0]?.messages ?? [], sources[0]);
    return { ...(isRecord(document) ? document : {}), messages };
  },
};

/** The final patch (`exit`) must never be compressed; `extra.timestamp` (epoch seconds) dates the message. */
function adjustSweAgentMessage(message: Message, source: Record<string, unknown>): Message {
  const extra = source.extra;
  const seconds = isRecord(extra) && typeof extra.timestamp === 'number' ? extra.timestamp : undefined;
  const timestamp = seconds === undefined ? undefined : new Date(seconds * 1000).toISOString();
  return {
    ...message,
    ...(source.role === 'exit' ? { pinned: true } : {}),
    ...(timestamp === undefined ? {} : { timestamp }),
  };
}

/** Marks that say a JSON document is a SWE-agent trajectory rather than plain chat messages. */
export function looksLikeSweAgent(document: unknown): boolean {
  if (!isRecord(document) || !Array.isArray(document.messages)) return false;
  if (typeof document.trajectory_format === 'string' || typeof document.instance_id === 'string') return true;
  return document.messages.some((message) => isRecord(message) && message.role === 'exit');
}
