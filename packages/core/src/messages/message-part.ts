/** Plain text shown to or written by the model. */
export interface TextPart {
  readonly type: 'text';
  readonly text: string;
}

/** A model's reasoning ("thinking"), kept apart from its answer. */
export interface ReasoningPart {
  readonly type: 'reasoning';
  readonly text: string;
}

/** A call the assistant makes to a tool. `input` is the parsed arguments when they are JSON. */
export interface ToolCallPart {
  readonly type: 'tool-call';
  readonly callId: string;
  readonly name: string;
  readonly input: unknown;
  /** The arguments exactly as the source carried them (OpenAI sends a JSON string). */
  readonly rawInput?: string;
}

/** The output of a tool call, matched to its call by `callId`. */
export interface ToolResultPart {
  readonly type: 'tool-result';
  readonly callId: string;
  readonly name?: string;
  readonly output: string;
  readonly isError?: boolean;
}

/** A reference to an image or file (the bytes are not part of the context text). */
export interface FilePart {
  readonly type: 'file';
  readonly mediaType: string;
  readonly uri?: string;
  readonly data?: string;
  readonly name?: string;
}

export type MessagePart = TextPart | ReasoningPart | ToolCallPart | ToolResultPart | FilePart;
export type MessagePartType = MessagePart['type'];
