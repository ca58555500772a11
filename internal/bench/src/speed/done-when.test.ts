import { describe, expect, it } from 'vitest';
import { compactCommandName, CLI_HELP, NODE_BASELINE, type CliCommandTiming } from './cli-startup-workload.js';
import { doneWhenRows } from './done-when.js';
import type { InProcessCase } from './in-process-workload.js';
import type { LiveAgentCase } from './live-agent-workload.js';
import { formatRatio, renderSpeedSection } from './render-speed.js';
import { cliRatios } from './speed-summary.js';
import type { SpeedReport } from './speed-report.js';

function inProcess(conversation: string, contender: string, mode: 'warm' | 'fresh', medianMs: number): InProcessCase {
  return { conversation, tokensBefore: 1_000, mode, contender, medianMs, samples: [medianMs] };
}

function live(conversation: string, contender: string, medianMs: number): LiveAgentCase {
  return { conversation, tokensBefore: 1_000, historyMessages: 10, turnMessages: 2, contender, medianMs, samples: [medianMs] };
}

function command(name: string, medianWallMs: number, reportedMs?: number, provider?: string): CliCommandTiming {
  return {
    name,
    medianWallMs,
    samples: [medianWallMs],
    exitCodes: [0],
    ...(reportedMs !== undefined ? { reportedMs } : {}),
    ...(provider ? { provider } : {}),
  };
}

const PIPELINE = 'mask,code-aware,trim';

const report: SpeedReport = {
  budget: 0.5,
  conversations: [
    { id: 'c1', tokens: 1_000, messages: 10 },
    { id: 'c2', tokens: 2_000, messages: 20 },
  ],
  contenders: [
    { name: 'trim', label: 'trim', family: 'ollm' },
    { name: 'langchain-cached', label: 'LangChain cached', family: 'LangChain.js' },
  ],
  inProcess: {
    rounds: 3,
    costlyRounds: 1,
    cases: [
      // Warm trim / LangChain: 3 and 3 -> 3 (met, at most 3).
      inProcess('c1', 'trim', 'warm', 6),
      inProcess('c2', 'trim', 'warm', 9),
      inProcess('c1', 'langchain-cached', 'warm', 2),
      inProcess('c2', 'langchain-cached', 'warm', 3),
      // Warm pipeline / LangChain: 5 and 20/3 -> 5.83 (not met, at most 5).
      inProcess('c1', PIPELINE, 'warm', 10),
      inProcess('c2', PIPELINE, 'warm', 20),
      // A new counter in the same process is not the fresh of the Done-when list.
      inProcess('c1', 'trim', 'fresh', 50),
      inProcess('c1', 'floor', 'fresh', 10),
    ],
  },
  processes: {
    cases: [
      // Fresh trim / floor, in new processes: 1.2 and 1.1 -> 1.15 (met).
      { conversation: 'c1', tokensBefore: 1_000, contender: 'trim', kind: 'fresh', firstCallMs: 12 },
      { conversation: 'c2', tokensBefore: 2_000, contender: 'trim', kind: 'fresh', firstCallMs: 11 },
      { conversation: 'c1', tokensBefore: 1_000, contender: 'floor', kind: 'fresh', firstCallMs: 10 },
      { conversation: 'c2', tokensBefore: 2_000, contender: 'floor', kind: 'fresh', firstCallMs: 10 },
      // Cold processes do not count for it either.
      { conversation: 'c1', tokensBefore: 1_000, contender: 'trim', kind: 'cold', firstCallMs: 100 },
      { conversation: 'c1', tokensBefore: 1_000, contender: 'floor', kind: 'cold', firstCallMs: 10 },
    ],
  },
  liveAgent: {
    rounds: 3,
    cases: [live('c1', 'trim (incremental)', 1), live('c1', 'langchain-cached', 2), live('c1', 'fold (incremental)', 3), live('c1', 'fold', 30)],
  },
  cliStartup: {
    transcript: 'c2',
    tokens: 2_000,
    rounds: 3,
    commands: [
      command(NODE_BASELINE, 100),
      command(CLI_HELP, 140),
      command(compactCommandName('trim'), 300, 100, 'trim'),
      command(compactCommandName(undefined), 500, 100, 'fold'),
    ],
  },
  runtimeTurns: {
    pipeline: 'fold',
    contextSize: 1e12,
    sizes: [
      { activeMessages: 100, fillSeconds: 0, turns: 5, addMs: 0.01, checkMs: 0.1, turnMs: 0.11, compactions: 0 },
      { activeMessages: 100_000, fillSeconds: 1, turns: 5, addMs: 0.01, checkMs: 0.15, turnMs: 0.16, compactions: 0 },
    ],
    checkRatio: 1.5,
    turnRatio: 0.16 / 0.11,
  },
};

describe('doneWhenRows', () => {
  const rows = doneWhenRows(report);
  const find = (text: string) => {
    const found = rows.find((entry) => entry.criterion.includes(text));
    if (!found) throw new Error(`no row ${text}`);
    return found;
  };

  it('computes each ratio from runs made side by side and judges it against the issue target', () => {
    expect(find('Warm: trim')).toMatchObject({ measured: 3, met: true, target: { comparison: 'at-most', value: 3 } });
    expect(find(`Warm: ${PIPELINE}`).measured).toBeCloseTo((5 + 20 / 3) / 2);
    expect(find(`Warm: ${PIPELINE}`).met).toBe(false);
    expect(find('Fresh counter: trim').measured).toBeCloseTo(1.15);
    expect(find('Fresh counter: trim').met).toBe(true);
    expect(find('Live agent: trim (incremental)')).toMatchObject({ measured: 0.5, met: true, target: { comparison: 'below', value: 1 } });
    expect(find('Live agent: fold (incremental)').measured).toBe(1.5);
    expect(find('trim / (`node -e 0`')).toMatchObject({ measured: 1.5, met: true });
    expect(find('the default provider (fold)')).toMatchObject({ measured: 2.5, met: false });
    expect(find('`ollm --help`').measured).toBeCloseTo(1.4);
    expect(find('Runtime compression check per turn, 100,000 / 100')).toMatchObject({ measured: 1.5, met: true });
  });

  it('leaves what the run did not measure unjudged', () => {
    expect(find('Warm: fold')).toEqual({ criterion: expect.any(String), target: { comparison: 'at-most', value: 5 } });
    expect(find(`Live agent: ${PIPELINE}`).met).toBeUndefined();
  });
});

describe('the speed section', () => {
  it('renders the Done-when table, the before/after table and a row per contender', () => {
    const markdown = renderSpeedSection(6, report).join('\n');
    expect(markdown).toContain('## 6. Speed: ratios from one run');
    expect(markdown).toContain('| Warm: trim / LangChain `trimMessages` (cached counter) | ≤ 3x | 3.00x | yes |');
    expect(markdown).toMatch(/\| Warm: mask,code-aware,trim \/ LangChain \(cached counter\) \| ≤ 5x \| 5\.83x \| \*\*no\*\* \|/);
    expect(markdown).toContain('| Warm: fold (the default) / LangChain (cached counter) | ≤ 5x | — | not measured |');
    expect(markdown).toContain('| trim, warm / LangChain cached | 15.8x | 3.00x |');
    expect(markdown).toContain('| ollm --help | 140 | — | 1.40x | — |');
    expect(renderSpeedSection(6, { skipped: 'no SWE-agent transcripts' }).join('\n')).toContain('Skipped: no SWE-agent transcripts.');
    expect([formatRatio(0.00523), formatRatio(0.456), formatRatio(15.84), formatRatio(38.2), formatRatio(undefined)]).toEqual([
      '0.0052x',
      '0.46x',
      '15.8x',
      '38.2x',
      '—',
    ]);
  });

  it('puts each CLI command against node -e 0 and each compaction against node -e 0 plus the time it reports', () => {
    expect(cliRatios(report.cliStartup!)).toEqual([
      { name: NODE_BASELINE, wallMs: 100 },
      { name: CLI_HELP, wallMs: 140, overNode: 1.4 },
      { name: compactCommandName('trim'), provider: 'trim', wallMs: 300, reportedMs: 100, overNode: 3, overNodeAndCompaction: 1.5 },
      { name: compactCommandName(undefined), provider: 'fold', wallMs: 500, reportedMs: 100, overNode: 5, overNodeAndCompaction: 2.5 },
    ]);
  });
});
