import fc from 'fast-check';

const identifiers = ['user', 'order', 'reservation', 'query', 'field', 'model', 'form', 'cache', 'token', 'path'] as const;
const methods = ['filter', 'resolve', 'validate', 'render', 'save', 'split', 'get_or_create'] as const;

const functionArbitrary = fc.record({
  name: fc.constantFrom(...identifiers),
  method: fc.constantFrom(...methods),
  number: fc.nat({ max: 999 }),
  documentation: fc.lorem({ maxCount: 1, mode: 'sentences' }),
});

/** Python-like source, as a file view in a coding-agent transcript (2-12 KB). */
export const codeOutputArbitrary: fc.Arbitrary<string> = fc
  .record({
    functions: fc.array(functionArbitrary, { minLength: 12, maxLength: 60 }),
    numbered: fc.boolean(),
  })
  .map(({ functions, numbered }) => {
    const lines = ['import os', 'from django.db import models', ''];
    for (const [index, spec] of functions.entries()) {
      lines.push(
        `def ${spec.name}_${spec.method}_${index}(self, ${spec.name}):`,
        `    """${spec.documentation}"""`,
        `    result = ${spec.name}.${spec.method}(${spec.number})`,
        '    if result is None:',
        `        raise ValueError("${spec.name} ${index} failed")`,
        '    return result',
        '',
      );
    }
    // `cat -n` style line numbers, as SWE-agent file views show them.
    return numbered ? lines.map((line, index) => `${String(index + 1).padStart(6)}\t${line}`).join('\n') : lines.join('\n');
  });

const recordArbitrary = fc.record({
  reservation_id: fc.stringMatching(/^[A-Z0-9]{6}$/),
  user_id: fc.constantFrom('mia_li_3668', 'omar_davis_3817', 'sofia_kim_7287'),
  cabin: fc.constantFrom('economy', 'basic_economy', 'business'),
  flights: fc.array(
    fc.record({
      flight_number: fc.stringMatching(/^HAT[0-9]{3}$/),
      date: fc.constantFrom('2024-05-15', '2024-05-16', '2024-05-20'),
      price: fc.nat({ max: 2000 }),
      origin: fc.constantFrom('JFK', 'SFO', 'ORD', 'LAX'),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  insurance: fc.constantFrom('yes', 'no'),
});

/** Pretty-printed JSON, as a tool-calling API returns (2-15 KB). */
export const jsonOutputArbitrary: fc.Arbitrary<string> = fc
  .array(recordArbitrary, { minLength: 8, maxLength: 40 })
  .map((records) => JSON.stringify({ count: records.length, results: records }, null, 2));

/** A short tool output: a line of shell output, an error, or a small JSON value. */
export const shortOutputArbitrary: fc.Arbitrary<string> = fc.oneof(
  fc.lorem({ maxCount: 12 }),
  fc.constantFrom('', 'OK', 'Traceback (most recent call last):\n  File "manage.py", line 3\nImportError: No module named foo'),
  fc.record({ status: fc.constantFrom('ok', 'error'), value: fc.integer() }).map((value) => JSON.stringify(value)),
  fc.string({ unit: 'grapheme', maxLength: 80 }),
);

/** Any tool output: mostly short ones, with long code and JSON views mixed in. */
export function toolOutputArbitrary(longOutputs = true): fc.Arbitrary<string> {
  if (!longOutputs) return shortOutputArbitrary;
  return fc.oneof({ weight: 3, arbitrary: shortOutputArbitrary }, { weight: 1, arbitrary: codeOutputArbitrary }, { weight: 1, arbitrary: jsonOutputArbitrary });
}
