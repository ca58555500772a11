import { withoutCheckpointMetadata } from './checkpoint-header.js';
import { CODECS } from './formats/codecs.js';
import { sourcesOf } from './formats/source-index.js';
import { layoutOf, stringifyJson } from './json/json-layout.js';
import type { Transcript } from './transcript.js';

/** The transcript as text in its own format. */
export function serializeTranscript(transcript: Transcript): string {
  const codec = CODECS[transcript.format];
  const sources = sourcesOf(codec, transcript.document, transcript.file);
  // A checkpoint's metadata is in its text; as fields it would break formats such as Anthropic's.
  // A format with a metadata field of its own (ollm-session) decides per message what to keep.
  const conversations = codec.carriesMetadata
    ? transcript.conversations
    : transcript.conversations.map((conversation) => ({ ...conversation, messages: conversation.messages.map(withoutCheckpointMetadata) }));
  const document = codec.write(transcript.document, conversations, sources);
  const layout = layoutOf(transcript.document);
  if (codec.syntax === 'jsonl') {
    const lineLayout = { ...layout, indent: '', trailingNewline: true };
    return (document as unknown[]).map((line) => stringifyJson(line, lineLayout)).join('');
  }
  return stringifyJson(document, layout);
}
