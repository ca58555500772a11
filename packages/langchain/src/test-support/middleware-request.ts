import { AIMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { AgentMiddleware } from 'langchain';

/** What the middleware handed on to the model call. */
export interface SentRequest {
  readonly messages: BaseMessage[];
  readonly systemMessage: SystemMessage;
  readonly request: unknown;
}

/**
 * Calls a middleware's `wrapModelCall` as createAgent's model node does (the system message
 * apart from the messages), and returns what it handed on to the model, with the request given.
 */
export async function sendThrough(
  middleware: AgentMiddleware,
  messages: BaseMessage[],
  system: SystemMessage | undefined,
  extra: { readonly model?: unknown; readonly tools?: unknown[] } = {},
): Promise<{ readonly sent: SentRequest; readonly request: unknown }> {
  const systemMessage = system ?? new SystemMessage('');
  const request = {
    model: extra.model ?? {},
    messages,
    systemMessage,
    systemPrompt: systemMessage.text,
    tools: extra.tools ?? [],
    state: { messages },
    runtime: {},
  };
  let sent: SentRequest | undefined;
  const wrap = middleware.wrapModelCall as unknown as (request: unknown, handler: (next: SentRequest) => Promise<AIMessage>) => Promise<unknown>;
  await wrap(request, async (next) => {
    sent = { messages: next.messages, systemMessage: next.systemMessage, request: next };
    return new AIMessage('done');
  });
  if (!sent) throw new Error('the middleware did not call the model');
  return { sent, request };
}

/** Problems with tool pairing in LangChain messages, as OpenAI checks them. */
export function orphanProblems(messages: readonly BaseMessage[]): string[] {
  const problems: string[] = [];
  for (const [position, message] of messages.entries()) {
    if (message.type === 'tool') {
      let previous = position - 1;
      while (previous >= 0 && messages[previous]!.type === 'tool') previous -= 1;
      const calls = previous >= 0 && messages[previous]!.type === 'ai' ? ((messages[previous] as AIMessage).tool_calls ?? []) : [];
      const id = (message as unknown as { tool_call_id: string }).tool_call_id;
      if (!calls.some((call) => call.id === id)) problems.push(`ToolMessage ${position} (${id}) follows no call of its id`);
    }
    if (message.type === 'ai') {
      const ai = message as AIMessage;
      const answered = new Set<string>();
      for (let next = position + 1; next < messages.length && messages[next]!.type === 'tool'; next += 1) {
        answered.add((messages[next] as unknown as { tool_call_id: string }).tool_call_id);
      }
      const last = messages.slice(position + 1).every((later) => later.type === 'tool');
      for (const call of ai.tool_calls ?? []) if (!answered.has(call.id!) && !last) problems.push(`call ${call.id} of message ${position} has no result`);
      const raw = ai.additional_kwargs['tool_calls'];
      if (Array.isArray(raw)) {
        for (const entry of raw as { id?: string }[]) {
          if (!(ai.tool_calls ?? []).some((call) => call.id === entry.id))
            problems.push(`raw tool call ${entry.id} of message ${position} is not one of its tool_calls`);
        }
      }
    }
  }
  return problems;
}
