/**
 * Splits one shell statement into words, honouring single and double quotes and backslashes.
 * Enough for the read commands agents run (`sed -n '10,20p' "a b.py"`); not a shell parser.
 */
export function shellWords(statement: string): string[] {
  const words: string[] = [];
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
    } else if (/\s/.test(character)) {
      if (inWord) words.push(current);
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
  let current = '';
  let quote: '"' | "'" | undefined;
  const endStage = (): void => {
    if (current.trim() !== '') stages.push(current.trim());
    current = '';
  };
  const endStatement = (): void => {
    endStage();
    if (stages.length > 0) statements.push(stages);
    stages = [];
  };
  for (let index = 0; index < command.length; index++) {
    const character = command[index]!;
    const next = command[index + 1];
    if (quote) {
      if (character === quote) quote = undefined;
      current += character;
      continue;
    }
    if (character === "'" || character === '"') {
      quote = character;
      current += character;
    } else if ((character === '&' && next === '&') || (character === '|' && next === '|')) {
      endStatement();
      index++;
    } else if (character === ';' || character === '\n') {
      endStatement();
    } else if (character === '|') {
      endStage();
    } else {
      current += character;
    }
  }
  endStatement();
  return statements;
}
