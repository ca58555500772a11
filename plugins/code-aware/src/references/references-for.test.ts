import type { Message } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { CodeAwareCache } from '../cache/code-aware-cache.js';
import { ConversationBuilder } from '../test-support/conversation-builder.js';
import type { CodeView } from '../views/code-view.js';
import { lineReferencesFor } from './references-for.js';

const NO_VIEWS: ReadonlyMap<string, CodeView> = new Map();

function conversation(): Message[] {
  return new ConversationBuilder()
    .system('You are a coding agent.')
    .user('Fix the crash in app/models.py.')
    .shell('grep -n "def save" app/models.py', 'app/models.py:12:    def save(self):')
    .assistant('The save at line 12 is the problem.')
    .build();
}

describe('lineReferencesFor', () => {
  it('gives the references built before for the same array holding the same messages', () => {
    const messages = conversation();
    const cache = new CodeAwareCache();
    const first = lineReferencesFor(messages, NO_VIEWS, cache);
    expect(lineReferencesFor(messages, NO_VIEWS, cache)).toBe(first);
    expect(lineReferencesFor(messages, new Map(NO_VIEWS), cache)).toBe(first);
  });

  it('indexes again an array changed in place, other views or another cache', () => {
    const messages = conversation();
    const cache = new CodeAwareCache();
    const first = lineReferencesFor(messages, NO_VIEWS, cache);
    // Another array holding the same messages (a pipeline's previous stage made it) is the same conversation.
    expect(lineReferencesFor([...messages], NO_VIEWS, cache)).toBe(first);
    expect(lineReferencesFor(messages, NO_VIEWS, new CodeAwareCache())).not.toBe(first);
    const view = { kind: 'file-view', messageIndex: 3, partIndex: 0, before: '', lines: [], after: '', wholeFile: true } as CodeView;
    expect(lineReferencesFor(messages, new Map([['3:0', view]]), cache)).not.toBe(first);

    const base = lineReferencesFor(messages, NO_VIEWS, cache);
    expect(lineReferencesFor(messages, NO_VIEWS, cache)).toBe(base);
    messages[3] = { ...messages[3]!, parts: [{ type: 'tool-result', callId: 'call_1', output: 'app/models.py:40:    def save(self):' }] };
    const replaced = lineReferencesFor(messages, NO_VIEWS, cache);
    expect(replaced).not.toBe(base);
    expect(lineReferencesFor(messages, NO_VIEWS, cache)).toBe(replaced);
    messages.push({ id: 'm9', role: 'user', parts: [{ type: 'text', text: 'And line 50?' }] });
    expect(lineReferencesFor(messages, NO_VIEWS, cache)).not.toBe(replaced);
  });
});
