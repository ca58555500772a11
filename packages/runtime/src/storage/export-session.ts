import type { GoalState, Message } from '@ollm/core';
import type { SessionRecord } from './session-history.js';

/** ollm's JSON session layout (`~/.ollm/sessions/{sessionId}.json`). */
export interface ExportedSession {
  sessionId: string;
  startTime: string;
  lastActivity: string;
  model?: string;
  provider?: string;
  /** Each message whole: its id, role, parts, timestamp, and when set its name, pinned flag and metadata (checkpoints). */
  messages: { id: string; role: Message['role']; parts: unknown[]; timestamp?: string; name?: string; pinned?: boolean; metadata?: Record<string, unknown> }[];
  toolCalls: { id: string; name: string; args: unknown; result?: { llmContent: string; isError?: boolean }; timestamp?: string }[];
  /**
   * The session's goals, each in its last recorded state (status, checkpoints, decisions,
   * artifacts, times), in the order they were set; the active one has status `active`. Missing
   * when the session recorded none.
   */
  goals?: GoalState[];
  metadata: {
    tokenCount: number;
    compactionCount: number;
    /** @deprecated Use `compactionCount` (the same number; kept for readers of the first layout). */
    compressionCount: number;
  };
}

/** Converts a session's full history to the JSON session layout (tool calls joined with their results). */
export function exportSession(record: SessionRecord): ExportedSession {
  const toolCalls: ExportedSession['toolCalls'] = [];
  const byId = new Map<string, ExportedSession['toolCalls'][number]>();
  for (const message of record.messages) {
    for (const part of message.parts) {
      if (part.type === 'tool-call') {
        const call = { id: part.callId, name: part.name, args: part.input, ...(message.timestamp ? { timestamp: message.timestamp } : {}) };
        toolCalls.push(call);
        byId.set(part.callId, call);
      } else if (part.type === 'tool-result') {
        const call = byId.get(part.callId);
        if (call) call.result = { llmContent: part.output, ...(part.isError ? { isError: true } : {}) };
      }
    }
  }
  return {
    sessionId: record.sessionId,
    startTime: record.startTime,
    lastActivity: record.lastActivity,
    ...(record.model !== undefined ? { model: record.model } : {}),
    ...(record.provider !== undefined ? { provider: record.provider } : {}),
    messages: record.messages.map((message) => ({
      id: message.id,
      role: message.role,
      parts: message.parts.map((part) => ({ ...part })),
      ...(message.timestamp ? { timestamp: message.timestamp } : {}),
      ...(message.name !== undefined ? { name: message.name } : {}),
      ...(message.pinned !== undefined ? { pinned: message.pinned } : {}),
      ...(message.metadata !== undefined ? { metadata: { ...message.metadata } } : {}),
    })),
    toolCalls,
    ...(record.goals.length > 0 ? { goals: lastStateOfEachGoal(record.goals) } : {}),
    metadata: { tokenCount: record.metadata.tokenCount, compactionCount: record.metadata.compactionCount, compressionCount: record.metadata.compactionCount },
  };
}

/** Each goal's last recorded state, in the order the goals were first recorded (a goal saved without an id is one by its text and time). */
function lastStateOfEachGoal(states: readonly GoalState[]): GoalState[] {
  const byGoal = new Map<string, GoalState>();
  for (const state of states) byGoal.set(state.id ?? `${state.description}\n${state.createdAt ?? ''}`, state);
  return [...byGoal.values()];
}
