import type { Message } from '@ollm/core';

export type TranscriptFormat = 'openai' | 'anthropic' | 'ollama' | 'gptme' | 'swe-agent' | 'tau-bench' | 'swe-agent-classic' | 'ollm-session';

/** Every format, in the order error messages list them (the formats added later come last). */
export const TRANSCRIPT_FORMATS: readonly TranscriptFormat[] = [
  'openai',
  'anthropic',
  'ollama',
  'gptme',
  'swe-agent',
  'tau-bench',
  'swe-agent-classic',
  'ollm-session',
];

export interface Conversation {
  readonly id: string;
  readonly messages: readonly Message[];
}

export interface Transcript {
  readonly format: TranscriptFormat;
  /** Path or label, used in error messages. */
  readonly file: string;
  /** One for most formats; tau-bench files hold many. */
  readonly conversations: readonly Conversation[];
  /** The parsed source, kept so writing preserves what messages don't carry. */
  readonly document: unknown;
}

export function isTranscriptFormat(value: unknown): value is TranscriptFormat {
  return typeof value === 'string' && (TRANSCRIPT_FORMATS as readonly string[]).includes(value);
}
