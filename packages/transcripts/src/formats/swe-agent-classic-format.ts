import type { Message } from '@ollm/core';
import { isRecord, orderLike } from '../json/order-like.js';
import { readOpenAIConversation } from '../openai-chat/openai-conversation.js';
import { writeOpenAIMessage } from '../openai-chat/write-openai-message.js';
import { expectArray, expectRecord } from '../validation/expect.js';
import type { FormatCodec, SourceReference } from './format-codec.js';

/**
 * The original SWE-agent's trajectories (`<instance>.traj`, not mini-swe-agent's `*.traj.json`):
 * `{trajectory: [{action, observation, response, thought, state, ...}], history: [...], info:
 * {exit_status, submission, model_stats, ...}, replay_config?, environment?}`. `history` holds
 * what the model was sent: OpenAI chat messages with SWE-agent's own fields (`agent`,
 * `message_type`, `thought`, `action`, `is_demo`, `thinking_blocks`, ...), which are not model
 * input and go to `metadata`. A tool message names its call in `tool_call_ids: [id]` (SWE-agent
 * 1.x) or `tool_call_id`. The conversation is `history`; `trajectory`, `info` and every other
 * top-level field stay in the document, and writing replaces only `history`.
 */
export const sweAgentClassicFormat: FormatCodec = {
  format: 'swe-agent-classic',
  syntax: 'json',
  read(document, file) {
    const trajectory = expectRecord(document, file, 'line 1', 'a trajectory');
    const values = expectArray(trajectory.history, file, 'history', '"history"');
    const { messages, sources } = readOpenAIConversation(values, { file, positionPrefix: 'history, ', toolCallIdOf: singleToolCallId });
    return [{ id: instanceIdOf(trajectory) ?? 'trajectory', messages, sources }];
  },
  write(document, conversations, sources) {
    const trajectory = isRecord(document) ? document : {};
    // SWE-agent 1.x names the answered call in a list; a new tool message follows the file's habit.
    const usesIdLists = Array.isArray(trajectory.history) && trajectory.history.some((message) => isRecord(message) && Array.isArray(message.tool_call_ids));
    const history = (conversations[0]?.messages ?? []).map((message) => writeHistoryItem(message, sources[0]?.get(message.id), usesIdLists));
    return { ...trajectory, history };
  },
};

/** `history` beside a `trajectory` list and no `messages` (mini-swe-agent's layout has `messages`). */
export function looksLikeSweAgentClassic(document: unknown): boolean {
  return isRecord(document) && Array.isArray(document.history) && Array.isArray(document.trajectory) && !('messages' in document);
}

/** `tool_call_ids` with exactly one id (SWE-agent asserts one call per observation); else `tool_call_id`. */
function singleToolCallId(source: Record<string, unknown>): unknown {
  const ids = source.tool_call_ids;
  return Array.isArray(ids) && ids.length === 1 && source.tool_call_id === undefined ? ids[0] : undefined;
}

/** The instance id, from `replay_config` (a JSON string in SWE-agent 1.x: `problem_statement.id`). */
function instanceIdOf(trajectory: Record<string, unknown>): string | undefined {
  let config: unknown = trajectory.replay_config;
  if (typeof config === 'string') {
    try {
      config = JSON.parse(config) as unknown;
    } catch {
      return undefined;
    }
  }
  const statement = isRecord(config) ? config.problem_statement : undefined;
  return isRecord(statement) && typeof statement.id === 'string' && statement.id !== '' ? statement.id : undefined;
}

function writeHistoryItem(message: Message, reference: SourceReference | undefined, usesIdLists: boolean): Record<string, unknown> {
  const source = reference?.source;
  const written = writeOpenAIMessage(message, source);
  const idList = source ? Array.isArray(source.tool_call_ids) && source.tool_call_id === undefined : usesIdLists;
  if (message.role !== 'tool' || !idList || typeof written.tool_call_id !== 'string') return written;
  // Put the id back in the list, where `tool_call_id` was written (or the source had the list).
  const callId = written.tool_call_id;
  const replaced = Object.fromEntries(
    Object.entries(written)
      .filter(([key]) => key !== 'tool_call_ids')
      .map(([key, value]) => (key === 'tool_call_id' ? ['tool_call_ids', [callId]] : [key, value])),
  );
  return orderLike(replaced, source);
}
