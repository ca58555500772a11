import { restoreCheckpoint } from './checkpoint-header.js';
import { detectDocument } from './detect-format.js';
import { CODECS } from './formats/codecs.js';
import { rememberSources } from './formats/source-index.js';
import { detectJsonLayout, rememberLayout } from './json/json-layout.js';
import { parseJsonText } from './json/parse-json-text.js';
import { isTranscriptFormat, TRANSCRIPT_FORMATS, type Transcript, type TranscriptFormat } from './transcript.js';
import { invalidTranscript } from './validation/invalid-transcript.js';

export interface ParseTranscriptOptions {
  /** Path or label, used in error messages. */
  readonly file: string;
  /** Skip detection. */
  readonly format?: TranscriptFormat;
}

/** Parses a transcript's text into conversations of messages, keeping the source document for writing. */
export function parseTranscript(source: string, options: ParseTranscriptOptions): Transcript {
  const { file } = options;
  // A byte order mark is not content (readTranscript already drops it).
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  if (options.format !== undefined && !isTranscriptFormat(options.format)) {
    throw invalidTranscript(file, 'line 1', `unknown format ${JSON.stringify(options.format)} (supported formats: ${TRANSCRIPT_FORMATS.join(', ')})`);
  }
  const detected = options.format === undefined ? detectDocument(text, file) : { format: options.format };
  const codec = CODECS[detected.format];
  const document = codec.syntax === 'jsonl' ? parseJsonLines(text, file) : 'document' in detected ? detected.document : parseJsonText(text, file);
  rememberLayout(document, detectJsonLayout(text));
  const conversations = codec.read(document, file);
  rememberSources(
    document,
    conversations.map((conversation) => conversation.sources),
  );
  return {
    format: detected.format,
    file,
    // A checkpoint message gets its metadata back from its header line (see checkpoint-header.ts).
    conversations: conversations.map(({ id, messages }) => ({ id, messages: messages.map(restoreCheckpoint) })),
    document,
  };
}

/** One JSON value per non-blank line; errors name the line. */
function parseJsonLines(text: string, file: string): unknown[] {
  const values: unknown[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() !== '') values.push(parseJsonText(line, file, index + 1));
  });
  return values;
}
