// @ollm/langchain: ollm as a LangChain.js v1 agent middleware for createAgent.
export type { CompactionEvent, ContextMiddlewareOptions, RecallSettings } from './context-middleware.js';
export { CONTEXT_MIDDLEWARE_NAME, contextMiddleware } from './context-middleware.js';
export type { RecallToolOptions } from './recall-tool.js';
export { RECALL_WINDOW_SHARE, boundedRecall, createRecallTool } from './recall-tool.js';
export { RequestTooLargeError } from './request-too-large-error.js';
export type { ConvertedRequest, ReturnedMessage } from './message-bridge.js';
export { MessageBridge } from './message-bridge.js';
