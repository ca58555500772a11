import { describe, expect, it } from 'vitest';
import { compactWith, createProviderContext } from '@ollm/core';
import { createCodeAwareProvider } from '../index.js';
import { ConversationBuilder, pythonModule } from '../test-support/conversation-builder.js';
import { grammarMayLoad, loadedGrammars } from './grammar-loader.js';

const context = createProviderContext();
const provider = createCodeAwareProvider({ cache: false, recentMessages: 2 });

/** A TypeScript module of `count` functions, each with a body of several rows. */
function typescriptModule(count: number): string {
  const rows = ["import { join } from 'node:path';", ''];
  for (let index = 0; index < count; index++) {
    rows.push(
      `export function step${index}(value: number): string {`,
      `  const doubled = value * ${index + 2};`,
      '  return join(String(doubled), "x");',
      '}',
      '',
    );
  }
  return rows.join('\n');
}

// Grammars are loaded once per process: these tests run in order, in this file's own process.
describe('grammar loading', () => {
  it('loads no grammar, and does not start tree-sitter, for a conversation without code', async () => {
    const messages = new ConversationBuilder().user('Hello.').shell('ls', 'a\nb\nc').assistant('Done.').build();
    await compactWith(provider, messages, { context });
    expect(loadedGrammars()).toEqual([]);
  });

  it('loads only the grammars of the views it folds, on first need', async () => {
    const messages = new ConversationBuilder()
      .user('Fix it.')
      .shell('cat pkg/store.py', pythonModule('Store', 8)) // old: folded by its Python outline
      .shell('cat src/app.ts', typescriptModule(6)) // read again below: folded to a reference, never parsed
      .shell('cat src/app.ts', typescriptModule(6)) // the view the reference points to: kept in full
      .assistant(`Next:\n\n\`\`\`go\npackage main\n\nfunc main() {\n\tfirst := 1\n\tsecond := 2\n\tthird := 3\n\tprintln(first, second, third)\n}\n\`\`\`\n`) // recent: kept
      .build();
    const result = await compactWith(provider, messages, { context });
    expect(result.removed.map((entry) => entry.messageId)).toEqual(['m4', 'm2']);
    expect(loadedGrammars()).toEqual(['python']);
    // Whether TypeScript would parse is known without loading its grammar.
    expect(grammarMayLoad('typescript')).toBe(true);
    expect(loadedGrammars()).toEqual(['python']);
  });
});
