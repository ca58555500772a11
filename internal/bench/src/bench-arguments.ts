import { parseArgs } from 'node:util';
import { SPEED_PARTS } from './speed/speed-report.js';

/** What `pnpm bench --help` prints. */
export const BENCH_USAGE = `Usage: pnpm bench [options]

Measures ollm against its peers on the shared fixtures (../shared/fixtures when it is there,
else the repository's fixtures/) and writes the report.

  (no option)           the full run (~7 min): bench/results/latest.json, docs/benchmarks.md and
                        its charts (pnpm run docs then records the docs' real outputs)
  --quick               CI's smoke run: bench/results/quick.json, quick.md and its charts
  --fixtures DIR        the transcripts to measure on
  --only speed          only the speed section, or some of its parts:
  --only speed:PART,..  ${SPEED_PARTS.join(', ')}
  --only serve          only ollm serve against the fake model server
  --only middleware     only the AI SDK's and LangChain's context middlewares per agent step
                        (--only writes bench/results/partial.json and partial.md; docs/ untouched)
  --from FILE           measure nothing: render FILE (a full or quick report) again
  -h, --help            this text
`;

export interface BenchArguments {
  readonly quick: boolean;
  readonly fixtures?: string;
  readonly only?: string;
  readonly from?: string;
}

/** The bench's command line: its options, `help`, or a usage error as its message. */
export function parseBenchArguments(argv: readonly string[]): { readonly arguments: BenchArguments } | { readonly help: true } | { readonly error: string } {
  let values;
  try {
    ({ values } = parseArgs({
      // `pnpm bench -- --quick` passes the `--` on.
      args: argv[0] === '--' ? argv.slice(1) : [...argv],
      options: {
        quick: { type: 'boolean', default: false },
        fixtures: { type: 'string' },
        only: { type: 'string' },
        from: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { help: true };
  return {
    arguments: {
      quick: values.quick,
      ...(values.fixtures !== undefined ? { fixtures: values.fixtures } : {}),
      ...(values.only !== undefined ? { only: values.only } : {}),
      ...(values.from !== undefined ? { from: values.from } : {}),
    },
  };
}
