import { looksLikeAnthropic } from './formats/anthropic-format.js';
import { looksLikeGptmeLine } from './formats/gptme-format.js';
import { looksLikeOllama } from './formats/ollama-format.js';
import { looksLikeOllmSession } from './formats/ollm-session-format.js';
import { looksLikeSweAgentClassic } from './formats/swe-agent-classic-format.js';
import { looksLikeSweAgent } from './formats/swe-agent-format.js';
import { looksLikeTauBench } from './formats/tau-bench-format.js';
import { checkJsonNesting } from './json/json-nesting.js';
import { isRecord } from './json/order-like.js';
import { parseJsonText } from './json/parse-json-text.js';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from './transcript.js';
import { invalidTranscript } from './validation/invalid-transcript.js';

/** The format of a transcript's text. Unknown or malformed input is an error, never a guess. */
export function detectFormat(text: string, file: string): TranscriptFormat {
  return detectDocument(text, file).format;
}

/** Detection plus the parsed JSON document (undefined for JSONL), so callers parse only once. */
export function detectDocument(text: string, file: string): { format: TranscriptFormat; document?: unknown } {
  if (text.trim() === '') throw invalidTranscript(file, 'line 1', 'the file is empty');
  let document: unknown;
  try {
    document = JSON.parse(text) as unknown;
  } catch (error) {
    // Not one JSON document: gptme's conversation.jsonl holds one message per line.
    const firstLine = text.split('\n').find((line) => line.trim() !== '') ?? '';
    if (firstLine.trim() !== text.trim() && parsesAsGptmeLine(firstLine)) return { format: 'gptme' };
    parseJsonText(text, file); // throws with the line and column
    throw error;
  }
  checkJsonNesting(document, text, file);
  const format = detectDocumentFormat(document);
  if (!format) {
    throw invalidTranscript(file, 'line 1', `unknown transcript format (supported formats: ${TRANSCRIPT_FORMATS.join(', ')})`);
  }
  return { format, document };
}

function parsesAsGptmeLine(line: string): boolean {
  try {
    return looksLikeGptmeLine(JSON.parse(line));
  } catch {
    return false;
  }
}

/**
 * The most specific marks first: tau-bench's `[{traj}]`, ollm's session layout (`sessionId` with
 * `startTime` / `lastActivity` / `toolCalls`), classic SWE-agent (`history` + `trajectory`, no
 * `messages`), mini-swe-agent (`messages` + `trajectory_format` / `instance_id` / an `exit`
 * message), one gptme line; then message arrays: Anthropic, Ollama, OpenAI.
 */
export function detectDocumentFormat(document: unknown): TranscriptFormat | undefined {
  if (looksLikeTauBench(document)) return 'tau-bench';
  if (looksLikeOllmSession(document)) return 'ollm-session';
  if (looksLikeSweAgentClassic(document)) return 'swe-agent-classic';
  if (looksLikeSweAgent(document)) return 'swe-agent';
  if (looksLikeGptmeLine(document)) return 'gptme';
  const messages = Array.isArray(document) ? document : isRecord(document) && Array.isArray(document.messages) ? document.messages : undefined;
  if (!messages) return undefined;
  if (looksLikeAnthropic(document)) return 'anthropic';
  if (looksLikeOllama(document)) return 'ollama';
  // Some element must look like a chat message; otherwise this is some other JSON array.
  const hasMessage = messages.some((message) => isRecord(message) && typeof message.role === 'string');
  return hasMessage || messages.length === 0 ? 'openai' : undefined;
}
