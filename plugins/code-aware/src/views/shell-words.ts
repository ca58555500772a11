/** Whether the UTF-16 unit `code` is white space as `\s` reads it (without the regex, once per character). */
export function isWhiteSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 160) return false;
  return (
    code === 160 ||
    code === 5760 ||
    (code >= 8192 && code <= 8202) ||
    code === 8232 ||
    code === 8233 ||
    code === 8239 ||
    code === 8287 ||
    code === 12288 ||
    code === 65279
  );
}

/**
 * Splits one shell statement into words, honouring single and double quotes and backslashes.
 * Enough for the read commands agents run (`sed -n '10,20p' "a b.py"`); not a shell parser.
 * With `maxWords`, only the first words (a statement's program is its first): the rest is not read.
 */
export function shellWords(statement: string, maxWords = Infinity): string[] {
  const words: string[] = [];
  if (maxWords <= 0) return words;
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < statement.length; index++) {
    const character = statement[index]!;
    if (quote) {
      if (character === quote) quote = undefined;
      else if (character === '\\' && quote === '"' && index + 1 < statement.length) current += statement[++index];
      else current += character;
      continue;
    }
    if (character === "'" || character === '"') {
      quote = character;
      inWord = true;
    } else if (character === '\\' && index + 1 < statement.length) {
      current += statement[++index];
      inWord = true;
    } else if (isWhiteSpace(statement.charCodeAt(index))) {
      if (inWord) words.push(current);
      if (words.length >= maxWords) return words;
      current = '';
      inWord = false;
    } else {
      current += character;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return words;
}

/**
 * Splits a command line into statements (`&&`, `||`, `;`, newlines) and each statement into
 * pipeline stages (`|`), outside quotes. Heredoc bodies are left attached to their statement.
 */
export function splitCommandLine(command: string): string[][] {
  const statements: string[][] = [];
  let stages: string[] = [];
  // The text since the last separator: every other character belongs to the current stage.
  let start = 0;
  let quote: '"' | "'" | undefined;
  const endStage = (end: number): void => {
    const stage = command.slice(start, end).trim();
    if (stage !== '') stages.push(stage);
  };
  const endStatement = (end: number): void => {
    endStage(end);
    if (stages.length > 0) statements.push(stages);
    stages = [];
  };
  for (let index = 0; index < command.length; index++) {
    const character = command[index]!;
    if (quote) {
      if (character === quote) quote = undefined;
      continue;
    }
    const next = command[index + 1];
    if (character === "'" || character === '"') {
      quote = character;
    } else if ((character === '&' && next === '&') || (character === '|' && next === '|')) {
      endStatement(index);
      index++;
      start = index + 1;
    } else if (character === ';' || character === '\n') {
      endStatement(index);
      start = index + 1;
    } else if (character === '|') {
      endStage(index);
      start = index + 1;
    }
  }
  endStatement(command.length);
  return statements;
}
