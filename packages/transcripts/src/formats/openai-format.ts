import { isRecord } from '../json/order-like.js';
import { readOpenAIConversation, writeOpenAIConversation } from '../openai-chat/openai-conversation.js';
import { invalidTranscript } from '../validation/invalid-transcript.js';
import { expectArray } from '../validation/expect.js';
import type { FormatCodec } from './format-codec.js';

/** OpenAI chat messages: a bare array, or an object with `messages` (a request body, an export). */
export const openaiFormat: FormatCodec = {
  format: 'openai',
  syntax: 'json',
  read(document, file) {
    const wrapped = isRecord(document);
    if (!wrapped && !Array.isArray(document)) throw invalidTranscript(file, 'line 1', 'expected an array of messages or an object with "messages"');
    const values = wrapped ? expectArray(document.messages, file, 'messages', '"messages"') : (document as unknown[]);
    const { messages, sources } = readOpenAIConversation(values, { file });
    const id = wrapped && typeof document.id === 'string' ? document.id : 'conversation';
    return [{ id, messages, sources }];
  },
  write(document, conversations, sources) {
    const messages = writeOpenAIConversation(conversations[0]?.messages ?? [], sources[0]);
    return isRecord(document) ? { ...document, messages } : messages;
  },
};
