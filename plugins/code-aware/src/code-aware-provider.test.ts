import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  canonicalMessage,
  compactWith,
  createProviderContext,
  createTokenizer,
  resolveCompressionConfig,
  sha256Hex,
  TokenCounter,
  toolCallArguments,
  type Message,
  type MessagePart,
  type ToolCallPart,
} from '@ollm/core';
import codeAwareProvider, { createCodeAwareProvider } from './index.js';
import { ConversationBuilder, pythonModule } from './test-support/conversation-builder.js';

const logdir = mkdtempSync(join(tmpdir(), 'ollm-code-aware-'));
afterAll(() => rmSync(logdir, { recursive: true, force: true }));

const context = createProviderContext();
const provider = createCodeAwareProvider({ recentMessages: 3 });

function conversation(): Message[] {
  return new ConversationBuilder()
    .system('You are a coding agent.')
    .user('Fix the Store and Other classes.')
    .shell('cd /repo && cat pkg/store.py', pythonModule('Store', 8)) // 2, 3: read again later
    .shell('cat pkg/other.py', pythonModule('Other', 8)) // 4, 5: old, the only view of other.py
    .tool(
      'str_replace_editor',
      {
        command: 'str_replace',
        path: '/repo/pkg/other.py',
        old_str: '        other_third = os.path.join(str(other_second), "part_5")',
        new_str: '        other_third = other_second',
      },
      'The file /repo/pkg/other.py has been edited.',
    ) // 6, 7
    .shell('python run.py', 'Traceback (most recent call last):\n  File "/repo/pkg/other.py", line 24, in method_2\nValueError: bad') // 8, 9
    .assistant(`The helper I will use:\n\n\`\`\`python\n${pythonModule('Helper', 5)}\n\`\`\`\n`) // 10
    .shell('cd /repo && cat pkg/store.py', pythonModule('Store', 8)) // 11, 12: the latest view
    .assistant('Done.', { pinned: true }) // 13
    .build();
}

function outputOf(message: Message): string {
  const part = message.parts[0] as MessagePart;
  return part.type === 'tool-result' ? part.output : part.type === 'text' ? part.text : '';
}

describe('code-aware provider', () => {
  it('is the default export, named code-aware, spec v1', () => {
    expect(codeAwareProvider.name).toBe('code-aware');
    expect(codeAwareProvider.specificationVersion).toBe('v2');
    expect(codeAwareProvider.usesModel).toBe(false);
  });

  it('leaves a conversation within its limit as it is', async () => {
    const messages = conversation();
    const total = context.tokens.countMessages(messages);
    const result = await compactWith(provider, messages, { config: { limit: total }, context });
    expect(result.messages).toEqual(messages);
  });

  it('folds an earlier view of a file re-read later to a reference, and keeps the latest view in full', async () => {
    const messages = conversation();
    const result = await compactWith(provider, messages, { config: { logdir }, context });
    const earlier = outputOf(result.messages[3]!);
    expect(earlier).toMatch(
      /^<returncode>0<\/returncode>\n<output>\n\[earlier view of \/repo\/pkg\/store\.py lines 1-61, folded; latest view at message 12; ollm recover [0-9a-f]{12}\]\n\n<\/output>$/,
    );
    expect(result.messages[12]).toBe(messages[12]);
  });

  it('folds an old view to signatures and imports, keeping the lines later edited or cited', async () => {
    const result = await compactWith(provider, conversation(), { config: { logdir }, context });
    const folded = outputOf(result.messages[5]!);
    expect(folded).toContain('[folded view of pkg/other.py lines 1-61 (python)');
    expect(folded).toContain('import os');
    expect(folded).toContain('class Other:');
    for (let index = 0; index < 8; index++) expect(folded).toContain(`def method_${index}(self, value):`);
    expect(folded).toContain('other_second = other_first * 4'); // line 24, cited by the traceback
    expect(folded).toContain('"part_5"'); // edited later by str_replace
    expect(folded).not.toContain('explain other step');
    expect(folded).not.toContain('Docstring of Other');
    expect(folded).not.toContain('"part_3"');
    expect(folded).toMatch(/\.\.\. \d+ lines folded \(\d+-\d+\)/);
  });

  it('folds old code blocks in assistant text and never touches system, user or pinned messages', async () => {
    const messages = conversation();
    const result = await compactWith(provider, messages, { config: { logdir }, context });
    const block = outputOf(result.messages[10]!);
    expect(block).toContain('The helper I will use:');
    expect(block).toContain('[folded code block (python)');
    expect(block).toContain('def method_1(self, value):');
    expect(block).not.toContain('explain helper step');
    for (const index of [0, 1, 13]) expect(canonicalMessage(result.messages[index]!)).toBe(canonicalMessage(messages[index]!));
    expect(result.messages.map((message) => message.id)).toEqual(messages.map((message) => message.id));
  });

  it('saves every original under logdir, byte for byte, named by sha256', async () => {
    const messages = conversation();
    const result = await compactWith(provider, messages, { config: { logdir }, context });
    expect(result.removed.length).toBe(3);
    for (const entry of result.removed) {
      const original = outputOf(messages.find((message) => message.id === entry.messageId)!);
      const saved = readFileSync(entry.path!, 'utf8');
      expect(saved).toBe(original);
      expect(sha256Hex(saved)).toBe(entry.sha256);
      expect(outputOf(result.messages.find((message) => message.id === entry.messageId)!)).toContain(`ollm recover ${entry.sha256.slice(0, 12)}`);
    }
    expect(result.limitations).toEqual([]);
    expect(result.stats.tokensAfter).toBeLessThan(result.stats.tokensBefore);
  });

  it('stops folding as soon as the context is under the limit, oldest repeated view first', async () => {
    const messages = conversation();
    const total = context.tokens.countMessages(messages);
    const result = await compactWith(provider, messages, { config: { logdir, limit: total - 1 }, context });
    expect(result.removed.map((entry) => entry.messageId)).toEqual(['m3']);
    expect(result.stats.tokensAfter).toBeLessThanOrEqual(total - 1);
  });

  it('says so when the limit is out of reach, and never folds the recent messages', async () => {
    const messages = conversation();
    const result = await compactWith(provider, messages, { config: { logdir, limit: 10 }, context });
    expect(result.limitations.join('\n')).toMatch(/above the limit 10/);
    expect(result.messages[12]).toBe(messages[12]);
  });

  it('without logdir records only sha256 and says the content is not recoverable', async () => {
    const result = await compactWith(provider, conversation(), { context });
    expect(result.removed.length).toBeGreaterThan(0);
    for (const entry of result.removed) expect(entry.path).toBeUndefined();
    expect(result.limitations.join('\n')).toMatch(/not recoverable/);
  });

  it('folds an old heredoc script in a shell call, keeping the raw arguments in step', async () => {
    const script = pythonModule('Probe', 6);
    const messages = new ConversationBuilder()
      .user('Check it.')
      .shell(`cd /repo && cat > probe.py << 'EOF'\n${script}\nEOF\npython probe.py`, 'ok')
      .assistant('a')
      .assistant('b')
      .assistant('c')
      .build();
    const call = messages[1]!.parts[0]!;
    if (call.type !== 'tool-call') throw new Error('expected a tool call');
    messages[1] = { ...messages[1]!, parts: [{ ...call, rawInput: JSON.stringify(call.input) }] };
    const result = await compactWith(provider, messages, { config: { logdir }, context });
    const folded = result.messages[1]!.parts[0]!;
    if (folded.type !== 'tool-call') throw new Error('expected a tool call');
    const command = (folded.input as { command: string }).command;
    expect(command).toMatch(/^cd \/repo && cat > probe\.py << 'EOF'\n\[folded script probe\.py \(python\)/);
    expect(command).toContain('def method_5(self, value):');
    expect(command).not.toContain('explain probe step');
    expect(command.endsWith('\nEOF\npython probe.py')).toBe(true);
    expect(JSON.parse(folded.rawInput!)).toEqual(folded.input);
    expect(result.removed).toMatchObject([{ messageId: 'm1', kind: 'tool-call-input' }]);
    expect(readFileSync(result.removed[0]!.path!, 'utf8')).toBe((call.input as { command: string }).command);
    // What the call took in the context: its arguments as the model read them, as trim counts a folded call.
    expect(result.removed[0]!.originalTokens).toBe(context.tokens.countText(toolCallArguments(messages[1]!.parts[0]! as ToolCallPart)));
  });

  it("counts a folded script from the call's count, never tokenising its command whole again", async () => {
    const script = pythonModule('Counted', 6);
    const command = `cat > counted.py << 'EOF'\n${script}\nEOF\npython counted.py`;
    const messages = new ConversationBuilder().user('Check it.').shell(command, 'ok').assistant('a').assistant('b').assistant('c').build();
    const counted: string[] = [];
    const tokenizer = createTokenizer('o200k_base');
    const spy = new TokenCounter({ ...tokenizer, countTokens: (text) => (counted.push(text), tokenizer.countTokens(text)) }, { contentCache: false });
    const result = await compactWith(createCodeAwareProvider({ recentMessages: 3, cache: false }), messages, { context: { tokens: spy } });
    expect(result.removed).toMatchObject([{ messageId: 'm1', kind: 'tool-call-input' }]);
    expect(counted).not.toContain(command);
  });

  it('takes options from config.extraConfig over the factory, and rejects bad ones', async () => {
    // A recency window covering everything leaves only the repeated read to fold.
    const result = await compactWith(provider, conversation(), { config: { logdir, extraConfig: { recentMessages: 100 } }, context });
    expect(result.removed.map((entry) => entry.messageId)).toEqual(['m3']);
    expect(() => createCodeAwareProvider({ recentMessages: -1 })).toThrow(/recentMessages/);
    await expect(compactWith(provider, conversation(), { config: { extraConfig: { minimumSavingTokens: 'many' } }, context })).rejects.toThrow(
      /minimumSavingTokens/,
    );
  });

  it('leaves prose and data files to other providers, but still references their repeated reads', async () => {
    const readme = Array.from({ length: 30 }, (_, index) => `# Section ${index}\n\nSome prose about part ${index} of the project.`).join('\n');
    const messages = new ConversationBuilder()
      .user('Read the docs.')
      .shell('cat docs/README.md', readme) // 1, 2: read again later
      .shell('cat docs/GUIDE.md', readme.replaceAll('Section', 'Chapter')) // 3, 4: old, read once
      .shell('cat docs/README.md', readme) // 5, 6
      .assistant('a')
      .assistant('b')
      .assistant('c')
      .build();
    const result = await compactWith(provider, messages, { config: { logdir }, context });
    expect(outputOf(result.messages[2]!)).toContain('[earlier view of docs/README.md lines 1-90, folded; latest view at message 6;');
    expect(result.messages[4]).toBe(messages[4]);
    expect(result.messages[6]).toBe(messages[6]);
  });

  it('returns the input unchanged when already under the limit', async () => {
    const messages = conversation();
    const result = await compactWith(provider, messages, { config: { limit: 1_000_000 }, context });
    expect(result.messages).toEqual(messages);
    expect(result.removed).toEqual([]);
  });
});
