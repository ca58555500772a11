import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TokenCounter, compactWith, createTokenizer, renderMessage, type Message } from '@ollm/core';
import { createFoldProvider } from './index.js';
import { agentConversation, fileView, type AgentStep } from './test-support/agent-conversation.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));
const logdirs: string[] = [];
afterEach(() => {
  for (const dir of logdirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function steps(count: number): AgentStep[] {
  return Array.from({ length: count }, (_, index) => ({
    thought: `Step ${index}: I will look at module_${index} to find where the lookup happens.`,
    command: `cat /testbed/app/module_${index}.py`,
    output: fileView(`/testbed/app/module_${index}.py`, 40),
    reasoning: `Thinking about module_${index} at length. `.repeat(10),
  }));
}

async function fold(messages: readonly Message[], limit: number | undefined, logdir?: string) {
  return compactWith(createFoldProvider(), messages, {
    config: { ...(limit !== undefined ? { limit } : {}), ...(logdir ? { logdir } : {}) },
    context: { tokens },
  });
}

const text = (messages: readonly Message[]) => messages.map(renderMessage).join('\n');
const newLogdir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'ollm-fold-'));
  logdirs.push(dir);
  return dir;
};

describe('fold', () => {
  it('reaches 50%, 25% and 10% of a long run, keeping the system message, the task and the newest turn verbatim', async () => {
    const messages = agentConversation('Fix the lookup in /testbed/app.', steps(40));
    const total = tokens.countMessages(messages);
    for (const share of [0.5, 0.25, 0.1]) {
      const limit = Math.floor(total * share);
      const result = await fold(messages, limit);
      expect(result.stats.tokensAfter, `${share}`).toBeLessThanOrEqual(limit);
      expect(result.messages.slice(0, 2)).toEqual(messages.slice(0, 2));
      expect(result.messages.slice(-2)).toEqual(messages.slice(-2));
    }
  });

  it('folds every older run of turns into one digest with a 12-hex reference; the run is saved whole for recovery', async () => {
    const logdir = newLogdir();
    const messages = agentConversation('Fix the lookup.', steps(20));
    const result = await fold(messages, Math.floor(tokens.countMessages(messages) * 0.25), logdir);
    const digests = result.messages.filter(
      (message) => message.role === 'assistant' && message.parts.some((part) => part.type === 'text' && /^\[ollm fold [0-9a-f]{12}\]/.test(part.text)),
    );
    expect(digests).toHaveLength(1);
    // The digest takes the place (and the id) of the run's first message.
    expect(digests[0]!.id).toBe('assistant_0');
    const runs = result.removed.filter((piece) => piece.kind === 'turns');
    expect(runs).toHaveLength(1);
    const saved = JSON.parse(readFileSync(runs[0]!.path!, 'utf8')) as Message[];
    const keptIds = new Set(result.messages.map((message) => message.id));
    const dropped = messages.filter((message) => !keptIds.has(message.id) || message.id === 'assistant_0');
    expect(saved).toEqual(dropped);
    expect(renderMessage(digests[0]!)).toContain(runs[0]!.sha256.slice(0, 12));
  });

  it('keeps the turns just older than the newest in place, each output its own reference (the sha256 of the output) and chosen lines', async () => {
    const logdir = newLogdir();
    const messages = agentConversation('Fix the lookup.', steps(20));
    const result = await fold(messages, Math.floor(tokens.countMessages(messages) * 0.25), logdir);
    const reduced = result.messages.filter(
      (message) => message.role === 'tool' && message.parts.some((part) => part.type === 'tool-result' && part.output.startsWith('[ollm fold ')),
    );
    expect(reduced.length).toBeGreaterThan(0);
    for (const message of reduced) {
      const part = message.parts[0]!;
      if (part.type !== 'tool-result') throw new Error('not a tool result');
      const original = messages.find((candidate) => candidate.id === message.id)!.parts[0]!;
      if (original.type !== 'tool-result') throw new Error('not a tool result');
      const reference = /^\[ollm fold ([0-9a-f]{12})\] (\d+) lines, exit 0/.exec(part.output)!;
      expect(Number(reference[2])).toBe(original.output.split('\n').length);
      const piece = result.removed.find((entry) => entry.sha256.startsWith(reference[1]!))!;
      expect(readFileSync(piece.path!, 'utf8')).toBe(original.output);
      // Every line it keeps is a line of the output, verbatim.
      for (const line of part.output.split('\n').slice(1)) expect(original.output.split('\n')).toContain(line);
    }
  });

  it('a shortened call argument carries its own reference inside the argument', async () => {
    const logdir = newLogdir();
    const script = [
      'cat > /testbed/fix.py << EOF',
      ...Array.from({ length: 60 }, (_, line) => `value_${line} = compute_value(${line}) + offset_${line}`),
      'EOF',
    ].join('\n');
    const long: AgentStep = { thought: 'Write the fix.', command: script, output: '<returncode>0</returncode>\n<output>\n</output>' };
    const messages = agentConversation('Fix the lookup.', [...steps(8), long, ...steps(2)]);
    const result = await fold(messages, Math.floor(tokens.countMessages(messages) * 0.45), logdir);
    const call = result.messages.flatMap((message) => message.parts).find((part) => part.type === 'tool-call' && part.callId === 'call_8');
    if (call?.type !== 'tool-call') throw new Error('the call was folded away; the test needs it in place');
    const command = (JSON.parse(call.rawInput!) as { command: string }).command;
    expect(command).not.toBe(script);
    expect(command.split('\n')[0]).toBe('cat > /testbed/fix.py << EOF');
    expect(command.split('\n').at(-1)).toBe('EOF');
    const reference = /\[ollm fold ([0-9a-f]{12})\]/.exec(command)![1]!;
    expect(readFileSync(result.removed.find((entry) => entry.sha256.startsWith(reference))!.path!, 'utf8')).toBe(script);
  });

  it('keeps an old exception, test summary and traceback verbatim where their filler goes', async () => {
    const failing: AgentStep = {
      thought: 'Run the tests.',
      command: 'cd /testbed && python -m pytest tests/test_lookup.py',
      output: [
        '<returncode>1</returncode>',
        '<output>',
        ...Array.from({ length: 30 }, (_, line) => `collected item number ${line} of the session, nothing to see here`),
        'Traceback (most recent call last):',
        '  File "/testbed/app/lookup.py", line 42, in resolve_lookup',
        '    return registry[name]',
        "KeyError: 'unknown_field'",
        '3 failed, 12 passed in 0.41s',
        '</output>',
      ].join('\n'),
    };
    const messages = agentConversation('Fix the lookup.', [
      ...steps(4),
      failing,
      ...steps(12).map((step, index) => ({ ...step, command: `cat /testbed/other/file_${index}.py` })),
    ]);
    const result = await fold(messages, Math.floor(tokens.countMessages(messages) * 0.12));
    const kept = text(result.messages);
    expect(kept).toContain("KeyError: 'unknown_field'");
    expect(kept).toContain('3 failed, 12 passed in 0.41s');
    expect(kept).toContain('File "/testbed/app/lookup.py", line 42, in resolve_lookup');
    expect(kept).not.toContain('collected item number 7 of the session');
  });

  it('keeps the newest line that holds a name, not an older one', async () => {
    const view = (version: string) => ({
      thought: 'Look at the settings.',
      command: 'grep -n "resolve_timeout" /testbed/app/settings.py',
      output: `<returncode>0</returncode>\n<output>\n12: resolve_timeout = ${version}  # seconds before giving up\n</output>`,
    });
    const messages = agentConversation('Fix the lookup.', [view('30'), ...steps(6), view('45'), ...steps(10)]);
    const result = await fold(messages, Math.floor(tokens.countMessages(messages) * 0.12));
    const kept = text(result.messages);
    expect(kept).toContain('resolve_timeout = 45  # seconds before giving up');
    expect(kept).not.toContain('resolve_timeout = 30');
  });

  it('never reduces the newest tool result while older turns can be folded', async () => {
    const messages = agentConversation('Fix the lookup.', steps(10));
    const newest = messages.at(-1)!;
    const limit = tokens.countMessages(messages.slice(0, 2)) + tokens.countMessages(messages.slice(-2)) + 60;
    const result = await fold(messages, limit);
    expect(result.stats.tokensAfter).toBeLessThanOrEqual(limit);
    expect(result.messages.at(-1)).toEqual(newest);
  });

  it('a tighter limit never gives a larger output', async () => {
    const messages = agentConversation('Fix the lookup.', steps(30));
    const total = tokens.countMessages(messages);
    let previous = Number.POSITIVE_INFINITY;
    for (let share = 0.9; share >= 0.05; share -= 0.05) {
      const after = (await fold(messages, Math.floor(total * share))).stats.tokensAfter;
      expect(after, `${share}`).toBeLessThanOrEqual(previous);
      previous = after;
    }
  });

  it('in a long chat whose user messages take over half the budget, folds older user turns too, declared, and reaches the budget', async () => {
    const messages: Message[] = [{ id: 's', role: 'system', parts: [{ type: 'text', text: 'A long chat between Ana and Ben.' }] }];
    for (let turn = 0; turn < 60; turn++) {
      messages.push({
        id: `u${turn}`,
        role: 'user',
        parts: [{ type: 'text', text: `Turn ${turn}: I went to Lisbon on day ${turn} and met Carla there. It was sunny and we ate fish.` }],
      });
      messages.push({
        id: `a${turn}`,
        role: 'assistant',
        parts: [{ type: 'text', text: `That sounds lovely! Did Carla show you the tower of Belem on day ${turn}? I visited Porto in ${1990 + turn}.` }],
      });
    }
    const total = tokens.countMessages(messages);
    for (const share of [0.5, 0.25]) {
      const limit = Math.floor(total * share);
      const result = await fold(messages, limit);
      expect(result.stats.tokensAfter, `${share}`).toBeLessThanOrEqual(limit);
      expect(result.messages.slice(0, 2)).toEqual(messages.slice(0, 2));
      expect(result.messages.at(-1)).toEqual(messages.at(-1));
      expect(result.folded?.length ?? 0).toBeGreaterThan(0);
      expect((result.folded ?? []).every((entry) => entry.messageId.startsWith('u') && entry.messageId !== 'u0')).toBe(true);
      // What the folded turns said is still there in part, verbatim.
      expect(text(result.messages)).toMatch(/I visited Porto in (199\d|200\d)\./);
    }
  });

  it('when the system and user messages alone are over the limit, keeps them whole, folds the rest and warns', async () => {
    const messages = agentConversation(`Fix the lookup. ${'The task statement goes on at length. '.repeat(200)}`, steps(12));
    const fixed = tokens.countMessages(messages.slice(0, 2));
    const result = await fold(messages, fixed - 10);
    expect(result.messages.slice(0, 2)).toEqual(messages.slice(0, 2));
    expect(result.stats.tokensAfter).toBeLessThan(tokens.countMessages(messages) / 2);
    expect(result.limitations.join('\n')).toMatch(/over the limit|limit/);
  });

  it('rejects an unknown or malformed option with the option named', () => {
    expect(() => createFoldProvider({ recentShare: -1 })).toThrow(/recentShare must be a non-negative integer/);
    expect(() => createFoldProvider({ namesShare: 101 })).toThrow(/namesShare must be a non-negative integer \(a percentage/);
    expect(() => createFoldProvider({ keepRecent: 2 } as never)).toThrow(/no option "keepRecent"/);
  });
});
