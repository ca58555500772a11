import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Parser } from 'web-tree-sitter';
import { repositoryConversation } from '../test-fixtures.js';
import { codeParseContender, RECORD_PARSES_SCRIPT } from './code-parse-contender.js';
import { freshCounter } from './speed-contender.js';

/** The texts tree-sitter parses in this process while `run` runs. */
function parsedDuring(run: () => unknown): string[] {
  const parsed: string[] = [];
  const parse = Parser.prototype.parse;
  Parser.prototype.parse = function (this: Parser, ...args: Parameters<Parser['parse']>) {
    parsed.push(String(args[0]));
    return parse.apply(this, args);
  };
  try {
    run();
  } finally {
    Parser.prototype.parse = parse;
  }
  return parsed;
}

describe('the code parse', () => {
  it('parses, in each timed call, exactly the code texts the pipeline parsed in the recording process', async () => {
    const { messages } = await repositoryConversation('django__django-11999');
    const limit = Math.floor(freshCounter().countMessages(messages) / 2);
    const recorded = spawnSync(process.execPath, [RECORD_PARSES_SCRIPT], { input: JSON.stringify({ earlier: [], messages, limit }), encoding: 'utf8' });
    expect(recorded.status).toBe(0);
    const byPipeline = (JSON.parse(recorded.stdout) as { grammar: string; text: string }[]).map((entry) => entry.text);
    // The pipeline folds Python views of that run, with the Python grammar.
    expect(byPipeline.length).toBeGreaterThan(0);
    expect(recorded.stdout).toContain('tree-sitter-python.wasm');

    const prepared = await codeParseContender().prepare(messages, limit);
    let result: { parses: number; nodes: number } | undefined;
    expect(parsedDuring(() => (result = prepared.arm('fresh')() as typeof result))).toEqual(byPipeline);
    expect(result).toEqual({ parses: byPipeline.length, nodes: expect.any(Number) });
    expect(result!.nodes).toBeGreaterThan(0);
    // Nothing of one timed call is kept for the next.
    expect(parsedDuring(() => prepared.arm('fresh')())).toEqual(byPipeline);
  });

  it('records nothing of the conversations compacted before (code-aware skips the views it has cached)', async () => {
    const { messages } = await repositoryConversation('django__django-11999');
    const limit = Math.floor(freshCounter().countMessages(messages) / 2);
    const again = spawnSync(process.execPath, [RECORD_PARSES_SCRIPT], {
      input: JSON.stringify({ earlier: [{ messages, limit }], messages, limit }),
      encoding: 'utf8',
    });
    expect(again.status).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual([]);
  });
});
