import type { Message as OllamaMessage, Tool as OllamaTool } from 'ollama';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';

/** The one tool the agent has, as each API declares it. */
const TOOL_NAME = 'read_file';
const toolFunction = () => ({
  name: TOOL_NAME,
  description: 'Read a file of the repository',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
});
export const OPENAI_TOOLS: ChatCompletionTool[] = [{ type: 'function', function: toolFunction() }];
export const OLLAMA_TOOLS: OllamaTool[] = [{ type: 'function', function: toolFunction() }];

/** Lines of code the tool returns per turn: about 230 tokens. */
const FILE_LINES = 8;

/** One turn of an agent: the user's question, the file the agent reads for it and what the tool returns. */
export interface AgentTurn {
  readonly question: string;
  readonly path: string;
  readonly callId: string;
  readonly fileText: string;
}

/**
 * Turn `turn` of conversation `conversation`. Every text names both, so no two conversations
 * share a message and no token count is answered from a cache filled by another conversation.
 */
export function agentTurn(conversation: number, turn: number): AgentTurn {
  const path = `src/module-${turn % 17}.ts`;
  const lines = [`// ${path} (session ${conversation}, read at turn ${turn})`];
  for (let line = 0; line < FILE_LINES; line += 1)
    lines.push(`export function handler${conversation}_${turn}_${line}(input: number): number { return input * ${line + turn} + ${conversation}; }`);
  return {
    question: `Session ${conversation}, turn ${turn}: what does handler${conversation}_${turn}_3 in ${path} return for 2?`,
    path,
    callId: `call_${conversation}_${turn}`,
    fileText: lines.join('\n'),
  };
}

export function systemPrompt(conversation: number): string {
  return `You are a careful coding agent (session ${conversation}). Read files before changing them.`;
}

/** A conversation as one API's client sends it, grown turn by turn. */
export interface WireConversation {
  readonly api: 'openai' | 'ollama';
  /** The messages of the next request: the array the client is given. */
  readonly messages: readonly unknown[];
  /** Adds a turn's question, the tool call and its result: the request that follows asks for the reply. */
  addTurn(turn: AgentTurn): void;
  addReply(text: string): void;
}

export function openAIConversation(conversation: number): WireConversation & { readonly messages: ChatCompletionMessageParam[] } {
  const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: systemPrompt(conversation) }];
  return {
    api: 'openai',
    messages,
    addTurn(turn) {
      messages.push(
        { role: 'user', content: turn.question },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: turn.callId, type: 'function', function: { name: TOOL_NAME, arguments: JSON.stringify({ path: turn.path }) } }],
        },
        { role: 'tool', tool_call_id: turn.callId, content: turn.fileText },
      );
    },
    addReply(text) {
      messages.push({ role: 'assistant', content: text });
    },
  };
}

export function ollamaConversation(conversation: number): WireConversation & { readonly messages: OllamaMessage[] } {
  const messages: OllamaMessage[] = [{ role: 'system', content: systemPrompt(conversation) }];
  return {
    api: 'ollama',
    messages,
    addTurn(turn) {
      messages.push(
        { role: 'user', content: turn.question },
        { role: 'assistant', content: '', tool_calls: [{ function: { name: TOOL_NAME, arguments: { path: turn.path } } }] },
        { role: 'tool', tool_name: TOOL_NAME, content: turn.fileText },
      );
    },
    addReply(text) {
      messages.push({ role: 'assistant', content: text });
    },
  };
}
