import type { Prompt } from './prompt-types.js';

/**
 * What in an AI SDK prompt a provider refuses, as sentences: an empty user, assistant or tool
 * message; a tool result that answers no call of the nearest assistant message before it (with
 * only tool messages between); a call (not one the provider ran) whose result does not follow it
 * before the next user, system or assistant message. The AI SDK checks the last before a call
 * (`MissingToolResultsError`); the OpenAI and Anthropic APIs refuse all three.
 */
export function promptProblems(prompt: Prompt): string[] {
  const problems: string[] = [];
  let open = new Set<string>();
  let answerable = new Set<string>();
  const close = (position: number): void => {
    for (const callId of open) problems.push(`the tool call ${callId} has no result before message ${position}`);
    open = new Set();
  };
  for (const [position, message] of prompt.entries()) {
    if (message.role !== 'system' && message.content.length === 0) problems.push(`message ${position} (${message.role}) is empty`);
    if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type !== 'tool-result') continue;
        if (!answerable.has(part.toolCallId))
          problems.push(`the tool result ${part.toolCallId} (message ${position}) answers no call of the assistant message before it`);
        open.delete(part.toolCallId);
      }
      continue;
    }
    close(position);
    answerable = new Set();
    if (message.role !== 'assistant') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-call') continue;
      answerable.add(part.toolCallId);
      if (part.providerExecuted !== true) open.add(part.toolCallId);
    }
  }
  close(prompt.length);
  return problems;
}
