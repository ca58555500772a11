import { describe, expect, it } from 'vitest';
import { BENCH_USAGE, parseBenchArguments } from './bench-arguments.js';

describe('parseBenchArguments', () => {
  it('reads the options, with a full run by default', () => {
    expect(parseBenchArguments([])).toEqual({ arguments: { quick: false } });
    expect(parseBenchArguments(['--quick', '--fixtures', 'f', '--only', 'speed:cli'])).toEqual({
      arguments: { quick: true, fixtures: 'f', only: 'speed:cli' },
    });
    expect(parseBenchArguments(['--from', 'bench/results/latest.json'])).toEqual({ arguments: { quick: false, from: 'bench/results/latest.json' } });
    // As `pnpm bench -- --quick` passes them.
    expect(parseBenchArguments(['--', '--quick'])).toEqual({ arguments: { quick: true } });
  });

  it('answers --help and -h with the usage, which names every option', () => {
    expect(parseBenchArguments(['--help'])).toEqual({ help: true });
    expect(parseBenchArguments(['-h', '--quick'])).toEqual({ help: true });
    for (const option of ['--quick', '--fixtures', '--only', '--from', '--help']) expect(BENCH_USAGE).toContain(option);
  });

  it('turns an unknown option or a missing value into a message, not a throw', () => {
    const unknown = parseBenchArguments(['--fast']);
    expect(unknown).toEqual({ error: expect.stringContaining("'--fast'") });
    expect(parseBenchArguments(['--only'])).toEqual({ error: expect.stringContaining('--only') });
    expect(parseBenchArguments(['speed'])).toEqual({ error: expect.stringContaining("'speed'") });
  });
});
