import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message, MessageRole } from '../messages/message.js';
import type { MessagePart } from '../messages/message-part.js';
import { canonicalJson, canonicalMessage } from './canonical-form.js';
import { computeSourceDigest, sha256Hex } from './source-digest.js';
import { DOCUMENTED_CONVERSATION, DOCUMENTED_DIGEST } from '../test-support/documented-conversation.js';

describe('canonical form', () => {
  it('is pinned down: the documented conversation has this exact form and digest', () => {
    expect(canonicalMessage(DOCUMENTED_CONVERSATION[2]!)).toBe(
      '{"parts":[{"text":"Use ls.","type":"reasoning"},{"callId":"call_1","input":"{\\"command\\":\\"ls\\",\\"cwd\\":\\"/repo\\"}","name":"bash","type":"tool-call"}],"pinned":false,"role":"assistant"}',
    );
    expect(canonicalMessage(DOCUMENTED_CONVERSATION[3]!)).toBe(
      '{"parts":[{"callId":"call_1","isError":false,"name":"bash","output":"a.py\\nb.py\\n","type":"tool-result"}],"pinned":false,"role":"tool"}',
    );
    // If this changes, the canonical form changed: bump CANONICAL_FORM_VERSION and update the docs.
    expect(computeSourceDigest(DOCUMENTED_CONVERSATION)).toBe(DOCUMENTED_DIGEST);
  });

  it('matches the worked example in docs/source-digest.md', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../../../docs/source-digest.md', import.meta.url)), 'utf8');
    const example = JSON.parse(doc.split('```json\n')[1]!.split('```')[0]!) as Message[];
    expect(example).toEqual(DOCUMENTED_CONVERSATION);
    expect(doc).toContain(`its digest is \`${DOCUMENTED_DIGEST}\``);
  });

  it('gives identical digests for identical content, and the empty conversation a fixed one', () => {
    const copy = structuredClone(DOCUMENTED_CONVERSATION);
    expect(computeSourceDigest(copy)).toBe(computeSourceDigest(DOCUMENTED_CONVERSATION));
    expect(computeSourceDigest([])).toBe(sha256Hex('ollm-canonical-v1\n'));
  });

  it('ignores ids and metadata', () => {
    const renamed = DOCUMENTED_CONVERSATION.map((message, index) => ({
      ...message,
      id: `other-${index}`,
      metadata: { extra: { raw: 'response' }, sourceRole: 'exit' },
    }));
    expect(computeSourceDigest(renamed)).toBe(computeSourceDigest(DOCUMENTED_CONVERSATION));
  });

  it('ignores key order in tool input when rawInput is absent, but not rawInput itself', () => {
    const call = (input: unknown, rawInput?: string): Message[] => [
      { id: 'a', role: 'assistant', parts: [{ type: 'tool-call', callId: 'c', name: 'edit', input, ...(rawInput ? { rawInput } : {}) }] },
    ];
    const forward = { path: 'a.py', edits: [{ line: 1, text: 'x' }], options: { dry: false, mode: 'w' } };
    const backward = { options: { mode: 'w', dry: false }, edits: [{ text: 'x', line: 1 }], path: 'a.py' };
    expect(computeSourceDigest(call(backward))).toBe(computeSourceDigest(call(forward)));
    // rawInput is what the model saw, byte for byte: whitespace and order in it count.
    expect(computeSourceDigest(call(forward, '{"path": "a.py"}'))).not.toBe(computeSourceDigest(call(forward, '{"path":"a.py"}')));
  });

  it('canonicalJson sorts keys, drops undefined members and escapes like JSON', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x"y'], c: undefined })).toBe('{"a":[true,null,"x\\"y"],"b":1}');
    expect(canonicalJson({ é: 1, z: 2, A: 3 })).toBe('{"A":3,"z":2,"é":1}');
    expect(canonicalJson(undefined)).toBe('null');
  });
});

// ---------------------------------------------------------------- property: one character changes the digest

/** Every editable string of a conversation, as a getter and a setter on a deep copy. */
type Slot = { read: (messages: Message[]) => string; write: (messages: Message[], value: string) => Message[] };

function replaceMessage(messages: Message[], index: number, update: (message: Message) => Message): Message[] {
  return messages.map((message, position) => (position === index ? update(message) : message));
}

function replacePart(messages: Message[], index: number, partIndex: number, update: (part: MessagePart) => MessagePart): Message[] {
  return replaceMessage(messages, index, (message) => ({
    ...message,
    parts: message.parts.map((part, position) => (position === partIndex ? update(part) : part)),
  }));
}

function slotsOf(messages: Message[]): Slot[] {
  const slots: Slot[] = [];
  messages.forEach((message, index) => {
    if (message.name !== undefined) {
      slots.push({ read: (all) => all[index]!.name!, write: (all, value) => replaceMessage(all, index, (m) => ({ ...m, name: value })) });
    }
    if (message.timestamp !== undefined) {
      slots.push({ read: (all) => all[index]!.timestamp!, write: (all, value) => replaceMessage(all, index, (m) => ({ ...m, timestamp: value })) });
    }
    message.parts.forEach((part, partIndex) => {
      const field = (key: string) => {
        slots.push({
          read: (all) => (all[index]!.parts[partIndex] as unknown as Record<string, string>)[key]!,
          write: (all, value) => replacePart(all, index, partIndex, (p) => ({ ...p, [key]: value }) as MessagePart),
        });
      };
      if (part.type === 'text' || part.type === 'reasoning') field('text');
      if (part.type === 'tool-result') field('output');
      if (part.type === 'tool-call') {
        field('name');
        for (const key of Object.keys(part.input as Record<string, string>)) {
          const inputOf = (all: Message[]) => (all[index]!.parts[partIndex] as { input: Record<string, string> }).input;
          slots.push({
            read: (all) => inputOf(all)[key]!,
            write: (all, value) => replacePart(all, index, partIndex, (p) => ({ ...p, input: { ...inputOf(all), [key]: value } }) as MessagePart),
          });
        }
      }
    });
  });
  return slots;
}

/** Changes the character at `position` (or adds one to an empty string). */
function changeCharacter(value: string, position: number): string {
  if (value.length === 0) return 'x';
  const at = position % value.length;
  const replacement = value[at] === 'x' ? 'y' : 'x';
  return value.slice(0, at) + replacement + value.slice(at + 1);
}

const textArbitrary = fc.string({ unit: 'grapheme', maxLength: 40 });
const partArbitrary: fc.Arbitrary<MessagePart> = fc.oneof(
  fc.record({ type: fc.constant('text' as const), text: textArbitrary }),
  fc.record({ type: fc.constant('reasoning' as const), text: textArbitrary }),
  fc.record({
    type: fc.constant('tool-call' as const),
    callId: fc.constantFrom('c1', 'c2'),
    name: textArbitrary,
    input: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), textArbitrary, { maxKeys: 3 }),
  }),
  fc.record({ type: fc.constant('tool-result' as const), callId: fc.constantFrom('c1', 'c2'), output: textArbitrary }),
);
const messageArbitrary: fc.Arbitrary<Message> = fc.record(
  {
    id: fc.uuid(),
    role: fc.constantFrom<MessageRole>('system', 'user', 'assistant', 'tool'),
    parts: fc.array(partArbitrary, { minLength: 1, maxLength: 3 }),
    name: textArbitrary,
    timestamp: fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  },
  { requiredKeys: ['id', 'role', 'parts'] },
);

describe('source digest property', () => {
  it('changes when any one character of any text, tool input/output, name or timestamp changes', () => {
    fc.assert(
      fc.property(fc.array(messageArbitrary, { minLength: 1, maxLength: 6 }), fc.nat(), fc.nat(), (messages, slotChoice, position) => {
        const slots = slotsOf(messages);
        const slot = slots[slotChoice % slots.length]!;
        const changed = slot.write(messages, changeCharacter(slot.read(messages), position));
        expect(computeSourceDigest(changed)).not.toBe(computeSourceDigest(messages));
      }),
      { numRuns: 300 },
    );
  });

  it('changes when any message changes role', () => {
    fc.assert(
      fc.property(fc.array(messageArbitrary, { minLength: 1, maxLength: 6 }), fc.nat(), fc.nat(), (messages, which, roleChoice) => {
        const index = which % messages.length;
        const others = (['system', 'user', 'assistant', 'tool'] as const).filter((role) => role !== messages[index]!.role);
        const changed = replaceMessage(messages, index, (message) => ({ ...message, role: others[roleChoice % others.length]! }));
        expect(computeSourceDigest(changed)).not.toBe(computeSourceDigest(messages));
      }),
      { numRuns: 100 },
    );
  });
});
