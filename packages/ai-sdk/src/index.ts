// @ollm/ai-sdk: ollm for the Vercel AI SDK (v6, the LanguageModelV3 middleware spec). A
// language model middleware that keeps every call inside the model's window, incrementally
// across the steps of an agent run, and the recall tool that takes back what was removed.
export type { CompactionEvent, ContextMiddleware, ContextMiddlewareOptions } from './context-middleware.js';
export { DEFAULT_REPLY_SHARE, contextMiddleware } from './context-middleware.js';
export type { RecallToolOptions } from './recall-tool.js';
export { RECALL_WINDOW_SHARE, boundedRecall, createRecallTool } from './recall-tool.js';
export { ollmModelClient } from './ollm-model-client.js';
export { PromptTooLargeError } from './prompt-too-large-error.js';
export type { MessageOrigin, PromptConversion } from './prompt-to-messages.js';
export { promptToMessages } from './prompt-to-messages.js';
export { messagesToPrompt } from './messages-to-prompt.js';
export { promptProblems } from './prompt-problems.js';
export type { CallOptions, Prompt, PromptMessage, PromptPart, PromptToolOutput } from './prompt-types.js';
export { rewrittenToolOutput, toolOutputText } from './tool-output-text.js';
