import { describe, expect, it } from 'vitest';
import { findCodeBlocks } from './find-code-blocks.js';

const BODY = ['def first():', '    return 1', '', 'def second():', '    value = 2', '    return value', '', 'print(first())'];

describe('findCodeBlocks', () => {
  it('finds fenced blocks with the language from the tag, keeping the text around them', () => {
    const text = `Here is the code:\n\n\`\`\`python\n${BODY.join('\n')}\n\`\`\`\n\nDone.`;
    const [block] = findCodeBlocks(text, 4, 0);
    expect(block).toMatchObject({ kind: 'code-block', language: 'python', messageIndex: 4 });
    expect(block!.before + block!.lines.map((line) => line.text).join('\n') + block!.after).toBe(text);
  });

  it('guesses the language of an untagged block', () => {
    expect(findCodeBlocks(`\`\`\`\n${BODY.join('\n')}\n\`\`\``, 0, 0)[0]?.language).toBe('python');
  });

  it('never returns patches or diffs the assistant wrote, nor short blocks', () => {
    const patch = ['--- a/x.py', '+++ b/x.py', '@@ -1,8 +1,8 @@', ...BODY.map((line) => ` ${line}`)].join('\n');
    expect(findCodeBlocks(`\`\`\`diff\n${patch}\n\`\`\``, 0, 0)).toEqual([]);
    expect(findCodeBlocks(`\`\`\`\n${patch}\n\`\`\``, 0, 0)).toEqual([]);
    expect(findCodeBlocks('```python\nx = 1\n```', 0, 0)).toEqual([]);
  });

  it('finds several blocks in one text', () => {
    const block = `\`\`\`python\n${BODY.join('\n')}\n\`\`\``;
    expect(findCodeBlocks(`${block}\nand\n${block}`, 0, 0)).toHaveLength(2);
  });
});
