import { describe, expect, it } from 'vitest';
import { messageKey } from './message-key.js';

describe('messageKey', () => {
  it('leaves out cache_control wherever it is, and nothing else', () => {
    const marked = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'out', cache_control: { type: 'ephemeral' } }] };
    const plain = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'out' }] };
    expect(messageKey(marked)).toBe(messageKey(plain));
    expect(messageKey(plain)).toBe(JSON.stringify(plain));
    expect(messageKey({ ...plain, role: 'assistant' })).not.toBe(messageKey(plain));
    expect(messageKey(undefined)).toBe('null');
  });
});
