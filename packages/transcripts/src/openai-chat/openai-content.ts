import type { FilePart, MessagePart, TextPart } from '@ollm/core';
import { isRecord } from '../json/order-like.js';
import { invalidTranscript } from '../validation/invalid-transcript.js';
import { describeType } from '../validation/expect.js';

/** One element of an OpenAI content array as a message part. */
export function readOpenAIContentPart(block: unknown, file: string, position: string): TextPart | FilePart {
  if (!isRecord(block)) throw invalidTranscript(file, position, `content part must be an object, got ${describeType(block)}`);
  switch (block.type) {
    case 'text':
      if (typeof block.text === 'string') return { type: 'text', text: block.text };
      break;
    case 'refusal':
      if (typeof block.refusal === 'string') return { type: 'text', text: block.refusal };
      break;
    case 'image_url': {
      const url = isRecord(block.image_url) ? block.image_url.url : undefined;
      if (typeof url === 'string') return { type: 'file', mediaType: dataUrlMediaType(url) ?? 'image/*', uri: url };
      break;
    }
    case 'input_audio': {
      const audio = block.input_audio;
      if (isRecord(audio) && typeof audio.data === 'string') {
        return { type: 'file', mediaType: `audio/${typeof audio.format === 'string' ? audio.format : '*'}`, data: audio.data };
      }
      break;
    }
    case 'file': {
      const attached = block.file;
      if (isRecord(attached)) {
        return {
          type: 'file',
          mediaType: dataUrlMediaType(attached.file_data) ?? 'application/octet-stream',
          ...(typeof attached.file_data === 'string' ? { data: attached.file_data } : {}),
          ...(typeof attached.file_id === 'string' ? { uri: attached.file_id } : {}),
          ...(typeof attached.filename === 'string' ? { name: attached.filename } : {}),
        };
      }
      break;
    }
    default:
      throw invalidTranscript(file, position, `unknown content part type ${JSON.stringify(block.type)}`);
  }
  throw invalidTranscript(file, position, `content part of type "${String(block.type)}" is missing its data`);
}

/** A message part as an OpenAI content array element (parts that have no such form return undefined). */
export function writeOpenAIContentPart(part: MessagePart): Record<string, unknown> | undefined {
  if (part.type === 'text') return { type: 'text', text: part.text };
  if (part.type !== 'file') return undefined;
  if (part.mediaType.startsWith('audio/') && part.data !== undefined) {
    return { type: 'input_audio', input_audio: { data: part.data, format: part.mediaType.slice('audio/'.length) } };
  }
  if (part.mediaType.startsWith('image/')) {
    return { type: 'image_url', image_url: { url: part.uri ?? `data:${part.mediaType};base64,${part.data ?? ''}` } };
  }
  return {
    type: 'file',
    file: {
      ...(part.data !== undefined ? { file_data: part.data } : {}),
      ...(part.uri !== undefined ? { file_id: part.uri } : {}),
      ...(part.name !== undefined ? { filename: part.name } : {}),
    },
  };
}

function dataUrlMediaType(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  return /^data:([^;,]+)[;,]/.exec(url)?.[1];
}
