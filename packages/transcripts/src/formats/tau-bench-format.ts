import { isRecord } from '../json/order-like.js';
import { readOpenAIConversation, writeOpenAIConversation } from '../openai-chat/openai-conversation.js';
import { invalidTranscript } from '../validation/invalid-transcript.js';
import { expectArray, expectRecord } from '../validation/expect.js';
import type { FormatCodec, ReadConversation } from './format-codec.js';

/**
 * tau-bench trajectories: `[{task_id, trial, reward, info, traj}]`; each `traj` (OpenAI chat
 * messages) is one conversation with id `task-<task_id>-trial-<trial>`. `reward` and `info` stay in
 * the document.
 */
export const tauBenchFormat: FormatCodec = {
  format: 'tau-bench',
  syntax: 'json',
  read(document, file) {
    if (!Array.isArray(document)) throw invalidTranscript(file, 'line 1', 'expected an array of trajectories');
    const seen = new Set<string>();
    return document.map((value, index): ReadConversation => {
      const entry = expectRecord(value, file, `trajectory ${index}`, 'a trajectory');
      const id = `task-${String(entry.task_id ?? index)}-trial-${String(entry.trial ?? 0)}`;
      if (seen.has(id)) throw invalidTranscript(file, `trajectory ${index}`, `duplicate conversation id ${id}`);
      seen.add(id);
      const values = expectArray(entry.traj, file, `conversation ${id}`, '"traj"');
      const { messages, sources } = readOpenAIConversation(values, { file, positionPrefix: `conversation ${id}, ` });
      return { id, messages, sources };
    });
  },
  write(document, conversations, sources) {
    const entries = Array.isArray(document) ? document : [];
    return conversations.map((conversation, index) => {
      const entry = entries[index];
      const traj = writeOpenAIConversation(conversation.messages, sources[index]);
      return isRecord(entry) ? { ...entry, traj } : { task_id: conversation.id, traj };
    });
  },
};

export function looksLikeTauBench(document: unknown): boolean {
  return Array.isArray(document) && document.length > 0 && document.every((entry) => isRecord(entry) && Array.isArray(entry.traj));
}
