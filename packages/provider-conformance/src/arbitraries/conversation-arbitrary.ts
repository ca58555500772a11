import fc from 'fast-check';
import type { Message, MessagePart, ToolCallPart } from '@ollm/core';
import { toolOutputArbitrary } from './tool-output-arbitrary.js';

export interface ConversationArbitraryOptions {
  /** Fewest user turns (each followed by the assistant's work). Default 1. */
  readonly minExchanges?: number;
  /** Most user turns. Default 6. */
  readonly maxExchanges?: number;
  /** Include multi-KB code and JSON tool outputs. Default true. */
  readonly longToolOutputs?: boolean;
}

/** True about once in `times` draws. */
function oneIn(times: number): fc.Arbitrary<boolean> {
  return fc.integer({ min: 1, max: times }).map((value) => value === 1);
}

const proseArbitrary = fc.oneof(
  { weight: 4, arbitrary: fc.lorem({ maxCount: 6, mode: 'sentences' }) },
  // Odd input: emoji, combining marks, other scripts.
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }) },
);

const toolInputArbitrary = fc.oneof(
  fc.record({ command: fc.constantFrom('ls -la', 'cat django/db/models/query.py', 'python -m pytest tests/', 'git diff') }),
  fc.record({ path: fc.constantFrom('src/app.ts', 'django/forms/fields.py'), start: fc.nat({ max: 400 }) }),
  fc.record({ reservation_id: fc.stringMatching(/^[A-Z0-9]{6}$/) }),
);

function callPlanArbitrary(longOutputs: boolean) {
  return fc.record({
    name: fc.constantFrom('bash', 'read_file', 'search', 'get_reservation_details'),
    input: toolInputArbitrary,
    withRawInput: fc.boolean(),
    output: toolOutputArbitrary(longOutputs),
    isError: oneIn(7),
  });
}

function stepPlanArbitrary(longOutputs: boolean) {
  return fc.record({
    reasoning: fc.option(proseArbitrary, { freq: 3 }),
    text: fc.option(proseArbitrary, { freq: 2 }),
    // Several calls in one message are parallel calls, answered by several tool messages.
    calls: fc.array(callPlanArbitrary(longOutputs), { minLength: 1, maxLength: 3 }),
    answersReversed: fc.boolean(),
  });
}

const finalPlanArbitrary = fc.record({
  text: proseArbitrary,
  reasoning: fc.option(proseArbitrary, { freq: 3 }),
  thinkBlock: fc.option(proseArbitrary, { freq: 4 }),
  pinned: oneIn(9),
  withMetadata: fc.boolean(),
});

function exchangePlanArbitrary(longOutputs: boolean) {
  return fc.record({
    user: fc.record({
      text: proseArbitrary,
      pinned: oneIn(8),
      withFile: oneIn(10),
      withName: oneIn(10),
    }),
    steps: fc.array(stepPlanArbitrary(longOutputs), { maxLength: 3 }),
    final: fc.option(finalPlanArbitrary, { freq: 6 }),
  });
}

type CallPlan = ReturnType<typeof callPlanArbitrary> extends fc.Arbitrary<infer T> ? T : never;
type ExchangePlan = ReturnType<typeof exchangePlanArbitrary> extends fc.Arbitrary<infer T> ? T : never;

interface ConversationPlan {
  readonly system: { text: string; pinned: boolean } | null;
  readonly exchanges: readonly ExchangePlan[];
  readonly trailingCalls: readonly CallPlan[];
  readonly timestamps: 'none' | 'all' | 'some';
  readonly timestampPattern: number;
}

const START_TIME = Date.parse('2025-03-01T09:00:00.000Z');

/** Turns a plan into messages with unique ids, unique call ids and chronological timestamps. */
function buildConversation(plan: ConversationPlan): Message[] {
  const messages: Message[] = [];
  const add = (message: Omit<Message, 'id' | 'timestamp'>): void => {
    const position = messages.length;
    const stamped = plan.timestamps === 'all' || (plan.timestamps === 'some' && ((plan.timestampPattern >>> (position % 31)) & 1) === 1);
    messages.push({
      id: `message-${position}`,
      ...message,
      ...(stamped ? { timestamp: new Date(START_TIME + position * 17_000).toISOString() } : {}),
    });
  };
  const callPart = (call: CallPlan, callId: string): ToolCallPart => ({
    type: 'tool-call',
    callId,
    name: call.name,
    input: call.input,
    ...(call.withRawInput ? { rawInput: JSON.stringify(call.input) } : {}),
  });

  if (plan.system) add({ role: 'system', parts: [{ type: 'text', text: plan.system.text }], ...(plan.system.pinned ? { pinned: true } : {}) });
  for (const [exchangeIndex, exchange] of plan.exchanges.entries()) {
    const userParts: MessagePart[] = [{ type: 'text', text: exchange.user.text }];
    if (exchange.user.withFile) userParts.push({ type: 'file', mediaType: 'image/png', uri: `file:///tmp/screenshot-${exchangeIndex}.png` });
    add({
      role: 'user',
      parts: userParts,
      ...(exchange.user.pinned ? { pinned: true } : {}),
      ...(exchange.user.withName ? { name: 'reviewer' } : {}),
    });
    for (const [stepIndex, step] of exchange.steps.entries()) {
      const callIds = step.calls.map((_, callIndex) => `call_${exchangeIndex}_${stepIndex}_${callIndex}`);
      const parts: MessagePart[] = [];
      if (step.reasoning !== null) parts.push({ type: 'reasoning', text: step.reasoning });
      if (step.text !== null) parts.push({ type: 'text', text: step.text });
      step.calls.forEach((call, callIndex) => parts.push(callPart(call, callIds[callIndex]!)));
      add({ role: 'assistant', parts });
      const order = step.calls.map((_, callIndex) => callIndex);
      if (step.answersReversed) order.reverse();
      for (const callIndex of order) {
        const call = step.calls[callIndex]!;
        add({
          role: 'tool',
          parts: [{ type: 'tool-result', callId: callIds[callIndex]!, name: call.name, output: call.output, ...(call.isError ? { isError: true } : {}) }],
        });
      }
    }
    if (exchange.final !== null) {
      const final = exchange.final;
      const parts: MessagePart[] = [];
      if (final.reasoning !== null) parts.push({ type: 'reasoning', text: final.reasoning });
      // Some models (DeepSeek, Qwen) inline their reasoning as a <think> block in the text.
      const text = final.thinkBlock !== null ? `<think>\n${final.thinkBlock}\n</think>\n\n${final.text}` : final.text;
      parts.push({ type: 'text', text });
      add({
        role: 'assistant',
        parts,
        ...(final.pinned ? { pinned: true } : {}),
        ...(final.withMetadata ? { metadata: { finishReason: 'stop' } } : {}),
      });
    }
  }
  if (plan.trailingCalls.length > 0) {
    // The last turn's calls are still running: no results yet, which integrity allows.
    add({ role: 'assistant', parts: plan.trailingCalls.map((call, callIndex) => callPart(call, `call_trailing_${callIndex}`)) });
  }
  return messages;
}

/**
 * Valid conversations of the kinds real transcripts hold: an optional system prompt first, user
 * and assistant turns, tool calls with their results (parallel calls answered by several tool
 * messages, sometimes in reverse order), sometimes a trailing call without a result, reasoning
 * parts and `<think>` blocks, pinned messages, multi-KB code-like and JSON-like tool outputs,
 * timestamps on all, some or none of the messages, and unique ids.
 */
export function conversationArbitrary(options: ConversationArbitraryOptions = {}): fc.Arbitrary<Message[]> {
  const longOutputs = options.longToolOutputs ?? true;
  return fc
    .record({
      system: fc.option(fc.record({ text: proseArbitrary, pinned: oneIn(4) }), { freq: 3 }),
      exchanges: fc.array(exchangePlanArbitrary(longOutputs), {
        minLength: options.minExchanges ?? 1,
        maxLength: options.maxExchanges ?? 6,
      }),
      trailingCalls: fc.oneof(
        { weight: 3, arbitrary: fc.constant([]) },
        { weight: 1, arbitrary: fc.array(callPlanArbitrary(false), { minLength: 1, maxLength: 2 }) },
      ),
      timestamps: fc.constantFrom('none' as const, 'all' as const, 'some' as const),
      timestampPattern: fc.nat(),
    })
    .map(buildConversation);
}
