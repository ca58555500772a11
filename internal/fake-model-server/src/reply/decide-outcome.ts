import type { TokenCounter } from '@ollm/core';
import { partText, tokenPrefix } from '@ollm/core';
import type { ChatOutcome, FakeToolCall } from '../chat-exchange.js';
import type { Fault } from '../fault.js';
import type { FakeChatRequest } from './compose-reply.js';
import { composeReply } from './compose-reply.js';

/**
 * The reply to a chat request and its token counts: the custom or built-in reply, cut to max
 * tokens (finish reason `length`), unless an `empty` or `too-long` fault says otherwise.
 */
export function decideOutcome({
  request,
  promptTokens,
  fault,
  counter,
  reply,
  toolCalls,
  nextCallId,
}: {
  request: FakeChatRequest;
  promptTokens: number;
  fault: Fault | undefined;
  counter: TokenCounter;
  reply: ((request: FakeChatRequest) => string | undefined) | undefined;
  toolCalls?: ((request: FakeChatRequest) => readonly FakeToolCall[] | undefined) | undefined;
  nextCallId?: () => string;
}): ChatOutcome {
  const calls = fault === undefined ? toolCalls?.(request) : undefined;
  if (calls && calls.length > 0) {
    const made = calls.map((call) => ({ ...call, id: nextCallId?.() ?? 'call_fake' }));
    const text = reply?.(request) ?? '';
    return {
      text,
      promptTokens,
      completionTokens: counter.countText(text) + counter.countText(JSON.stringify(calls)),
      finishReason: 'tool_calls',
      toolCalls: made,
    };
  }
  let text = reply?.(request) ?? composeReply(request, counter.tokenizer);
  let finishReason: ChatOutcome['finishReason'] = 'stop';
  if (fault?.kind === 'empty') text = '';
  else if (fault?.kind === 'too-long') {
    // Longer than everything it was sent, whatever max tokens said.
    const everything = request.messages.map((message) => message.parts.map(partText).join(' ')).join(' ');
    text = `${everything} ${everything} (fake reply longer than its input)`;
  } else if (request.maxTokens !== undefined && counter.countText(text) > request.maxTokens) {
    text = tokenPrefix(text, request.maxTokens, counter.tokenizer);
    finishReason = 'length';
  }
  return { text, promptTokens, completionTokens: counter.countText(text), finishReason };
}
