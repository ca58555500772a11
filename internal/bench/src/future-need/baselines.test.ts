import { createTokenizer, findToolPairingProblem, TokenCounter, type Message } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { namesList, namesListStrategy, namesNote, recencyStrategy, recencyUnits, selectRecent } from './baselines.js';
import { step, text } from './test-conversation.js';

const counter = () => new TokenCounter(createTokenizer('o200k_base'));

// System, task, six steps of growing output, a second user message between steps 3 and 4.
const conversation: Message[] = [
  text('s', 'system', 'You can run shell commands.'),
  text('u', 'user', 'Fix parse_header in web/http/headers.py.'),
  ...step(1, 'Search.', 'grep -n split_params_fast web/http/headers.py', '40: def split_params_fast(value):'),
  ...step(2, 'Read.', 'cat web/http/cache.py', `class HeaderCache(dict):\n${'    pass\n'.repeat(20)}`),
  ...step(3, 'Read more.', 'cat web/http/util.py', 'def normalize_spacing(value):\n    return value'),
  text('u2', 'user', 'Please hurry.'),
  ...step(4, 'Run.', 'python -m pytest', `${'. '.repeat(60)}\n3 passed in 0.1s`),
  ...step(5, 'Check kept_name.', 'grep -rn kept_name web', 'web/http/headers.py:3: kept_name = 1'),
  ...step(6, 'Look at a long file.', 'cat web/big.py', 'x = 1\n'.repeat(150)),
];
const fixed = conversation.filter((message) => message.role === 'system' || message.role === 'user');

describe('recency baseline', () => {
  const total = counter().countMessages(conversation);
  const fixedTokens = counter().countMessages(fixed);

  it('takes steps whole: an assistant message with the tool results after it', () => {
    expect(recencyUnits(conversation).map((unit) => unit.map((index) => conversation[index]!.id))).toEqual([
      ['a1', 't1'],
      ['a2', 't2'],
      ['a3', 't3'],
      ['a4', 't4'],
      ['a5', 't5'],
      ['a6', 't6'],
    ]);
  });

  it('keeps system and user messages and the newest steps that fit, in order, never over the limit', () => {
    const sizes = new Set<number>();
    for (let limit = fixedTokens; limit <= total + 5; limit += 7) {
      const tokens = counter();
      const { kept, tokens: counted } = selectRecent(conversation, limit, tokens);
      sizes.add(kept.length);
      expect(counter().countMessages(kept)).toBe(counted);
      expect(counted).toBeLessThanOrEqual(limit);
      for (const message of fixed) expect(kept).toContain(message);
      // Calls and results stay paired; the input's order is kept.
      expect(findToolPairingProblem(conversation, kept)).toBeUndefined();
      expect(kept).toEqual(conversation.filter((message) => kept.includes(message)));
      // A contiguous tail: once a step is kept, every newer one is.
      const keptSteps = recencyUnits(conversation).map((unit) => kept.includes(conversation[unit[0]!]!));
      expect(keptSteps.indexOf(true) === -1 || keptSteps.slice(keptSteps.indexOf(true)).every(Boolean)).toBe(true);
    }
    // Every size between the fixed messages alone and the whole conversation was tried.
    expect(Math.min(...sizes)).toBe(fixed.length);
    expect(Math.max(...sizes)).toBe(conversation.length);
  });

  it('drops a step whose call would fit but whose result would not', () => {
    const tokens = counter();
    const lastCall = tokens.countMessage(conversation.find((message) => message.id === 'a6')!);
    const { kept } = selectRecent(conversation, fixedTokens + lastCall, tokens);
    expect(kept).toEqual(fixed);
  });

  it('is over the limit only when the system and user messages alone are, and then keeps just them', () => {
    const { kept, tokens } = selectRecent(conversation, fixedTokens - 1, counter());
    expect(kept).toEqual(fixed);
    expect(tokens).toBe(fixedTokens);
  });

  it('runs as a strategy of the baseline family', async () => {
    const prepared = recencyStrategy.prepare(conversation);
    await prepared.arm(Math.floor(total / 2), false)();
    expect(recencyStrategy.family).toBe('baseline');
    expect(counter().countMessages(prepared.output())).toBeLessThanOrEqual(Math.floor(total / 2));
    expect(prepared.output().length).toBeLessThan(conversation.length);
  });
});

describe('names-list baseline', () => {
  const total = counter().countMessages(conversation);
  const names = ['split_params_fast', 'HeaderCache', 'kept_name', 'never_seen'];

  it('is recency in half the limit plus, where the dropped steps were, the names they held', () => {
    // Half of it keeps steps 5 and 6 (with the system and user messages), not step 4.
    const tokens = counter();
    const lastTwo = conversation.filter((message) => ['a5', 't5', 'a6', 't6'].includes(message.id));
    const limit = 2 * (tokens.countMessages(fixed) + tokens.countMessages(lastTwo)) + 1;
    const output = namesList(conversation, limit, counter(), names);
    const recent = selectRecent(conversation, Math.floor(limit / 2), counter()).kept;
    expect(output.filter((message) => message.id !== 'names-seen')).toEqual(recent);
    // The dropped steps held split_params_fast and HeaderCache; step 5 (kept) alone holds kept_name; nothing held never_seen.
    expect(recent.map((message) => message.id)).toEqual(['s', 'u', 'u2', 'a5', 't5', 'a6', 't6']);
    const note = output.find((message) => message.id === 'names-seen')!;
    expect(note.role).toBe('assistant');
    expect(note.parts).toEqual([{ type: 'text', text: 'names seen: split_params_fast, HeaderCache' }]);
    // Right after the system and task messages, before the kept user message and steps.
    expect(output.map((message) => message.id).slice(0, 4)).toEqual(['s', 'u', 'names-seen', 'u2']);
    expect(counter().countMessages(output)).toBeLessThanOrEqual(limit);
    expect(findToolPairingProblem(conversation, output)).toBeUndefined();
  });

  it('lists only as many names as fit the limit, and every identifier of what it dropped when not told the needs', () => {
    const tokens = counter();
    const fixedTokens = tokens.countMessages(fixed);
    // Half of this limit keeps no step; the rest has room for a note of one name, not two.
    const limit = fixedTokens + tokens.countMessage(namesNote(['split_params_fast']));
    const output = namesList(conversation, limit, tokens, names);
    expect(output.find((message) => message.id === 'names-seen')!.parts).toEqual([{ type: 'text', text: 'names seen: split_params_fast' }]);
    expect(tokens.countMessages(output)).toBe(limit);
    expect(tokens.countMessage(namesNote(['split_params_fast', 'HeaderCache']))).toBeGreaterThan(limit - fixedTokens);
    // No room for a single name: no note at all.
    expect(namesList(conversation, fixedTokens + 2, counter(), names)).toEqual(fixed);
    const untold = namesList(conversation, Math.floor(total / 2), counter());
    const listed = (untold.find((message) => message.id === 'names-seen')!.parts[0] as { text: string }).text;
    expect(listed).toMatch(/^names seen: /);
    expect(listed).toContain('HeaderCache');
    expect(listed).toContain('web/http/cache.py');
  });

  it('runs as a strategy told the names by its context', async () => {
    const prepared = namesListStrategy.prepare(conversation, { names });
    await prepared.arm(Math.floor(total / 2), false)();
    expect(prepared.output().some((message) => message.id === 'names-seen')).toBe(true);
  });
});
