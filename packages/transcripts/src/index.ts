export type { Conversation, Transcript, TranscriptFormat } from './transcript.js';
export { TRANSCRIPT_FORMATS } from './transcript.js';
export { detectFormat } from './detect-format.js';
export type { ParseTranscriptOptions } from './parse-transcript.js';
export { parseTranscript } from './parse-transcript.js';
export { readTranscript } from './read-transcript.js';
export { serializeTranscript } from './serialize-transcript.js';
export { writeTranscript } from './write-transcript.js';
export { withConversationMessages } from './with-conversation-messages.js';
