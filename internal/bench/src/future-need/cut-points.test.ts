import { findToolPairingProblem } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { repositoryConversation } from '../test-fixtures.js';
import { cutAfter, stepsOf } from './cut-points.js';

describe('cut points', () => {
  it('cut a SWE-agent trajectory after floor(steps * share) assistant turns, never between a call and its result', async () => {
    const { messages } = await repositoryConversation('django__django-11999');
    const steps = stepsOf(messages);
    expect(steps.length).toBe(messages.filter((message) => message.role === 'assistant').length);
    for (const fraction of [0.5, 0.8]) {
      const cut = cutAfter(messages, fraction)!;
      expect(cut.stepsKept).toBe(Math.floor(steps.length * fraction));
      expect([...cut.prefix, ...cut.later]).toEqual(messages);
      expect(cut.prefix.filter((message) => message.role === 'assistant')).toHaveLength(cut.stepsKept);
      // The prefix ends on the last tool result of its last step; the later part starts a step.
      expect(cut.prefix[cut.prefix.length - 1]!.role).toBe('tool');
      expect(cut.later[0]!.role).toBe('assistant');
      expect(findToolPairingProblem(cut.prefix, cut.prefix)).toBeUndefined();
      const calls = cut.prefix.flatMap((message) => message.parts.flatMap((part) => (part.type === 'tool-call' ? [part.callId] : [])));
      const results = new Set(cut.prefix.flatMap((message) => message.parts.flatMap((part) => (part.type === 'tool-result' ? [part.callId] : []))));
      expect(calls.every((id) => results.has(id))).toBe(true);
    }
  });

  it('has no cut that leaves no step on one side', async () => {
    const { messages } = await repositoryConversation('django__django-11999');
    expect(cutAfter(messages, 0.001)).toBeUndefined();
    expect(cutAfter(messages.slice(0, 6), 0.5)?.stepsKept).toBe(1);
    expect(cutAfter(messages.slice(0, 3), 0.8)).toBeUndefined();
  });
});
