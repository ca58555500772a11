import type { LanguageModelMiddleware } from 'ai';

// The AI SDK's language model prompt types, read off the middleware type the `ai` package exports
// (its LanguageModelV3 spec), so this package needs no import of `@ai-sdk/provider` of its own.

type TransformParams = NonNullable<LanguageModelMiddleware['transformParams']>;

/** What a language model call is given (`LanguageModelV3CallOptions`). */
export type CallOptions = Parameters<TransformParams>[0]['params'];
/** The language model prompt (`LanguageModelV3Prompt`): what a provider turns into its request. */
export type Prompt = CallOptions['prompt'];
export type PromptMessage = Prompt[number];
export type SystemPromptMessage = Extract<PromptMessage, { role: 'system' }>;
export type UserPromptMessage = Extract<PromptMessage, { role: 'user' }>;
export type AssistantPromptMessage = Extract<PromptMessage, { role: 'assistant' }>;
export type ToolPromptMessage = Extract<PromptMessage, { role: 'tool' }>;
/** Any part of a user, assistant or tool message. */
export type PromptPart = UserPromptMessage['content'][number] | AssistantPromptMessage['content'][number] | ToolPromptMessage['content'][number];
export type PromptToolCallPart = Extract<PromptPart, { type: 'tool-call' }>;
export type PromptToolResultPart = Extract<PromptPart, { type: 'tool-result' }>;
export type PromptFilePart = Extract<PromptPart, { type: 'file' }>;
/** A tool result's output (`LanguageModelV3ToolResultOutput`). */
export type PromptToolOutput = PromptToolResultPart['output'];
