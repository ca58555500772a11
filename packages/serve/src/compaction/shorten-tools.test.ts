import { describe, expect, it } from 'vitest';
import { shortenText, shortenTools } from './shorten-tools.js';

const long = (words: number, seed: string) => Array.from({ length: words }, (_, index) => `${seed}${index}`).join(' ');
const count = (tools: unknown) => Math.ceil(JSON.stringify(tools).length / 4);

const anthropicTools = [
  {
    name: 'Bash',
    description: `Runs a shell command. ${long(400, 'b')}.\n\nUsage notes: ${long(300, 'n')}`,
    input_schema: { type: 'object', properties: { command: { type: 'string', description: `The command. ${long(80, 'c')}` } }, required: ['command'] },
    cache_control: { type: 'ephemeral' },
  },
  { name: 'Read', description: 'Reads a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
];
const openAITools = [
  {
    type: 'function',
    function: {
      name: 'bash',
      description: `Runs a command. ${long(500, 'x')}`,
      parameters: { type: 'object', properties: { description: { type: 'string', description: long(100, 'd') } } },
    },
  },
];

describe('shortenTools', () => {
  it('leaves tools that fit their share as they came', () => {
    const result = shortenTools(anthropicTools, 1_000_000, count);
    expect(result.tools).toBe(anthropicTools);
    expect(result.level).toBe(0);
  });

  it('shortens descriptions level by level until the tools fit, names, schemas and other fields kept', () => {
    const result = shortenTools(anthropicTools, 400, count);
    expect(result.level).toBeGreaterThan(0);
    expect(result.tokens).toBeLessThanOrEqual(400);
    const [bash, read] = result.tools as typeof anthropicTools;
    expect(bash!.name).toBe('Bash');
    expect(bash!.description.startsWith('Runs a shell command.')).toBe(true);
    expect(bash!.description).not.toContain('Usage notes');
    expect(bash!.input_schema.required).toEqual(['command']);
    expect(bash!.input_schema.properties.command!.type).toBe('string');
    expect(bash!.cache_control).toEqual({ type: 'ephemeral' });
    expect(read).toEqual(anthropicTools[1]);
    // The same tools give the same bytes every time.
    expect(JSON.stringify(shortenTools(anthropicTools, 400, count).tools)).toBe(JSON.stringify(result.tools));
  });

  it("reads OpenAI's nesting under `function`, and leaves a parameter named description a parameter", () => {
    const result = shortenTools(openAITools, 60, count);
    const tool = (result.tools as typeof openAITools)[0]!;
    expect(tool.function.name).toBe('bash');
    expect(tool.function.description.length).toBeLessThanOrEqual(101);
    expect(tool.function.parameters.properties.description.type).toBe('string');
    expect(result.level).toBe(3);
    expect('description' in tool.function.parameters.properties.description).toBe(false);
  });

  it('returns its best when even the last level is over the limit', () => {
    const result = shortenTools(anthropicTools, 1, count);
    expect(result.level).toBe(3);
    expect(result.tokens).toBeGreaterThan(1);
  });
});

describe('shortenText', () => {
  it('keeps the first paragraph, cut at a sentence end, else at a word with an ellipsis', () => {
    expect(shortenText('One. Two.\n\nThree.', 100)).toBe('One. Two.');
    expect(shortenText('First sentence here. Second sentence that is longer.', 30)).toBe('First sentence here.');
    expect(shortenText('no sentence end at all in this long text', 20)).toBe('no sentence end at…');
  });
});
