import type { GoalState, Message } from '@ollm/core';

/** A user request whose text is unique, so a test can prove it was never sent to the model. */
export function userText(exchange: number): string {
  return `USER-REQUEST-${exchange}: please look at module_${exchange}.py and tell me what the zebra${exchange} flag does.`;
}

/**
 * A coding session of `exchanges` rounds: user request, assistant call + tool result (a long file
 * view), assistant answer with goal markers. Starts with a system prompt; message 3 is pinned.
 */
export function buildConversation(exchanges: number, prefix = 'm'): Message[] {
  const messages: Message[] = [
    { id: `${prefix}-system`, role: 'system', parts: [{ type: 'text', text: 'You are a careful coding assistant.' }], timestamp: '2026-01-01T00:00:00Z' },
  ];
  for (let exchange = 0; exchange < exchanges; exchange += 1) {
    const time = (offset: number) => new Date(Date.UTC(2026, 0, 1, 0, exchange, offset)).toISOString();
    const callId = `${prefix}-call-${exchange}`;
    const body = Array.from({ length: 30 }, (_, line) => `def function_${exchange}_${line}(value):\n    return value * ${line}  # helper ${line}`).join('\n');
    messages.push(
      { id: `${prefix}-user-${exchange}`, role: 'user', parts: [{ type: 'text', text: userText(exchange) }], timestamp: time(0) },
      {
        id: `${prefix}-call-message-${exchange}`,
        role: 'assistant',
        parts: [
          { type: 'reasoning', text: `I need to read module_${exchange}.py before answering.` },
          { type: 'tool-call', callId, name: 'bash', input: { command: `cat src/module_${exchange}.py` } },
        ],
        timestamp: time(1),
      },
      { id: `${prefix}-result-${exchange}`, role: 'tool', parts: [{ type: 'tool-result', callId, name: 'bash', output: body }], timestamp: time(2) },
      {
        id: `${prefix}-answer-${exchange}`,
        role: 'assistant',
        parts: [
          {
            type: 'text',
            text:
              `The zebra${exchange} flag doubles every value in src/module_${exchange}.py. I decided to keep the helper functions unchanged. ` +
              `I modified src/module_${exchange}.py to add a guard for negative values.\n[ARTIFACT] Modified src/module_${exchange}.py\n[NEXT] Run the tests for module_${exchange}.`,
          },
        ],
        timestamp: time(3),
      },
    );
  }
  if (messages[3]) messages[3] = { ...messages[3], pinned: true };
  return messages;
}

export const GOAL: GoalState = {
  description: 'Make every module handle negative values',
  checkpoints: [
    { description: 'Audit the modules', status: 'completed' },
    { description: 'Add guards', status: 'in-progress' },
    { description: 'Release 2.0', status: 'pending' },
  ],
  decisions: [
    { description: 'Use plain guards, no decorators', locked: true },
    { description: 'Maybe rename helpers', locked: false },
  ],
  artifacts: [{ action: 'modified', path: 'src/guards.py' }],
  next: 'Finish the guards in the remaining modules',
};
