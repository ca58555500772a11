import type { ConversationReport } from './compact-transcript.js';

/** `ollm compact --json` for a file with one conversation. */
export interface SingleCompactionReport extends ConversationReport {
  readonly file: string;
  readonly format: string;
  readonly provider: string;
  /** Where the compacted transcript was written; null when it was not written (`--json` without `--out`). */
  readonly out: string | null;
}

/** `ollm compact --json` for a file with several conversations (tau-bench): totals plus one entry each. */
export interface MultipleCompactionReport {
  readonly file: string;
  readonly format: string;
  readonly provider: string;
  readonly out: string | null;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly removedCount: number;
  readonly timeMs: number;
  readonly conversations: readonly ConversationReport[];
}

export interface ReportHeader {
  readonly file: string;
  readonly format: string;
  readonly provider: string;
  readonly out: string | null;
  /** The file holds several conversations, so the report is the multiple shape even for one selected. */
  readonly multiple: boolean;
}

export function buildCompactionReport(header: ReportHeader, reports: readonly ConversationReport[]): SingleCompactionReport | MultipleCompactionReport {
  const { multiple, ...fields } = header;
  if (!multiple && reports.length === 1) return { ...fields, ...reports[0]! };
  return {
    ...fields,
    tokensBefore: sum(reports, (report) => report.tokensBefore),
    tokensAfter: sum(reports, (report) => report.tokensAfter),
    removedCount: sum(reports, (report) => report.removed.length),
    timeMs: sum(reports, (report) => report.timeMs),
    conversations: reports,
  };
}

function sum(reports: readonly ConversationReport[], value: (report: ConversationReport) => number): number {
  return reports.reduce((total, report) => total + value(report), 0);
}
