export interface JsonSyntaxError {
  /** UTF-16 offset into the text where parsing failed. */
  readonly offset: number;
  readonly reason: string;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Finds where `JSON.parse` would fail. V8 names a position only for some errors, so this small
 * scanner (strict RFC 8259, no value building) locates every kind the same way. It keeps the open
 * containers in a list rather than recursing, so text nested to any depth is scanned.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let index = 0;

  const fail = (reason: string): never => {
    throw { offset: index, reason } satisfies JsonSyntaxError;
  };
  const skipWhitespace = (): void => {
    while (index < text.length && ' \t\n\r'.includes(text[index]!)) index += 1;
  };
  const describe = (): string => (index >= text.length ? 'unexpected end of input' : `unexpected ${JSON.stringify(text[index])}`);

  const scanString = (): void => {
    index += 1;
    while (index < text.length) {
      const code = text.charCodeAt(index);
      if (code === 0x22) {
        index += 1;
        return;
      }
      if (code < 0x20) fail('control character in string');
      if (code === 0x5c) {
        const escape = text[index + 1];
        if (escape === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(index + 2, index + 6))) {
            index += 1;
            fail('bad unicode escape');
          }
          index += 6;
          continue;
        }
        if (escape === undefined || !'"\\/bfnrt'.includes(escape)) {
          index += 1;
          fail('bad escape in string');
        }
        index += 2;
        continue;
      }
      index += 1;
    }
    fail('unterminated string');
  };

  const scanNumber = (): void => {
    NUMBER.lastIndex = index;
    const match = NUMBER.exec(text);
    if (!match) fail(describe());
    index += match![0].length;
  };

  /** A string, number or literal at `index` (whitespace skipped). */
  const scanScalar = (): void => {
    const char = text[index];
    if (char === '"') return scanString();
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return scanNumber();
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, index)) {
        index += literal.length;
        return;
      }
    }
    fail(describe());
  };

  /** `"name":` of an object member. */
  const scanMemberName = (): void => {
    skipWhitespace();
    if (text[index] !== '"') fail(`expected a property name, ${describe()}`);
    scanString();
    skipWhitespace();
    if (text[index] !== ':') fail(`expected ':', ${describe()}`);
    index += 1;
  };

  // The closing bracket of each open container, innermost last.
  const open: string[] = [];
  try {
    let expectValue = true;
    for (;;) {
      if (expectValue) {
        skipWhitespace();
        const char = text[index];
        if (char === '{' || char === '[') {
          const close = char === '{' ? '}' : ']';
          index += 1;
          skipWhitespace();
          if (text[index] === close) {
            index += 1;
            expectValue = false;
          } else {
            open.push(close);
            if (close === '}') scanMemberName();
          }
          continue;
        }
        scanScalar();
        expectValue = false;
        continue;
      }
      // After a value: what may follow depends on the innermost open container.
      const close = open.at(-1);
      if (close === undefined) break;
      skipWhitespace();
      if (text[index] === ',') {
        index += 1;
        if (close === '}') scanMemberName();
        expectValue = true;
      } else if (text[index] === close) {
        index += 1;
        open.pop();
      } else {
        fail(`expected ',' or '${close}', ${describe()}`);
      }
    }
    skipWhitespace();
    if (index < text.length) fail(`unexpected ${JSON.stringify(text[index])} after the JSON value`);
    return undefined;
  } catch (error) {
    if (error instanceof Error) throw error;
    return error as JsonSyntaxError;
  }
}

/** 1-based line and column of a UTF-16 offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) {
    line += 1;
    lineStart = index + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
