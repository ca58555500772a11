import type { TranscriptFormat } from '../transcript.js';
import { anthropicFormat } from './anthropic-format.js';
import type { FormatCodec } from './format-codec.js';
import { gptmeFormat } from './gptme-format.js';
import { ollamaFormat } from './ollama-format.js';
import { ollmSessionFormat } from './ollm-session-format.js';
import { openaiFormat } from './openai-format.js';
import { sweAgentClassicFormat } from './swe-agent-classic-format.js';
import { sweAgentFormat } from './swe-agent-format.js';
import { tauBenchFormat } from './tau-bench-format.js';

export const CODECS: Readonly<Record<TranscriptFormat, FormatCodec>> = {
  openai: openaiFormat,
  anthropic: anthropicFormat,
  ollama: ollamaFormat,
  gptme: gptmeFormat,
  'swe-agent': sweAgentFormat,
  'tau-bench': tauBenchFormat,
  'swe-agent-classic': sweAgentClassicFormat,
  'ollm-session': ollmSessionFormat,
};
