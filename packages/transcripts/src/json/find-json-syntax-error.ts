export interface JsonSyntaxError {
  /** UTF-16 offset into the text where parsing failed. */
  readonly offset: number;
  readonly reason: string;
}

/**
 * Finds where `JSON.parse` would fail. V8 names a position only for some errors, so this small
 * scanner (strict RFC 8259, no value building) locates every kind the same way.
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
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(index, index + 400));
    if (!match || match[0] === '-' || match[0] === '') fail(describe());
    index += match![0].length;
  };

  const scanValue = (): void => {
    skipWhitespace();
    const char = text[index];
    if (char === '{') {
      index += 1;
      skipWhitespace();
      if (text[index] === '}') {
        index += 1;
        return;
      }
      for (;;) {
        skipWhitespace();
        if (text[index] !== '"') fail(`expected a property name, ${describe()}`);
        scanString();
        skipWhitespace();
        if (text[index] !== ':') fail(`expected ':', ${describe()}`);
        index += 1;
        scanValue();
        skipWhitespace();
        if (text[index] === ',') {
          index += 1;
          continue;
        }
        if (text[index] === '}') {
          index += 1;
          return;
        }
        fail(`expected ',' or '}', ${describe()}`);
      }
    }
    if (char === '[') {
      index += 1;
      skipWhitespace();
      if (text[index] === ']') {
        index += 1;
        return;
      }
      for (;;) {
        scanValue();
        skipWhitespace();
        if (text[index] === ',') {
          index += 1;
          continue;
        }
        if (text[index] === ']') {
          index += 1;
          return;
        }
        fail(`expected ',' or ']', ${describe()}`);
      }
    }
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

  try {
    scanValue();
    skipWhitespace();
    if (index < text.length) fail(`unexpected ${JSON.stringify(text[index])} after the JSON value`);
    return undefined;
  } catch (error) {
    if (error instanceof RangeError) return undefined; // nesting deeper than the call stack
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
