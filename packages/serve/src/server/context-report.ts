import { formatInteger } from '@ollm/core';
import type { RequestReport } from '../compaction/request-compactor.js';

/** The response header that says what the proxy did to the request. */
export const CONTEXT_HEADER = 'x-ollm-context';

/** Digits of a reference shown: what `ollm recover` takes. */
const REFERENCE_DIGITS = 12;
const REFERENCES_SHOWN = 8;

/**
 * `x-ollm-context: compacted; tokens=12345->2867; budget=3481; window=4096; reserve=615;
 * stages=fold; reused=38; processed=2867; new=210; kept=12; removed=14; refs=3f2a9c1e4b7d,…` (the newest 8
 * references) — one line,
 * `key=value` pairs after the action, so a client or a test reads it without parsing prose.
 */
export function contextHeader(report: RequestReport): string {
  const fields = [
    report.action,
    // A conversation ollm could not read was not counted either.
    ...(report.action === 'unread' ? [] : [`tokens=${report.tokensBefore}->${report.tokensAfter}`]),
    `budget=${report.budget}`,
    `window=${report.window}`,
    `window-source=${report.windowSource}`,
    `reserve=${report.reserve}`,
  ];
  if (report.toolsTokens > 0) fields.push(`tools=${report.toolsTokensAsked !== undefined ? `${report.toolsTokensAsked}->` : ''}${report.toolsTokens}`);
  if (report.replyLimitSent !== undefined) fields.push(`reply-limit=${report.replyLimitAsked}->${report.replyLimitSent}`);
  if (report.calibration !== 1) fields.push(`calibration=${report.calibration.toFixed(3)}`);
  if (report.stages.length > 0) fields.push(`stages=${report.stages.join(',')}`);
  if (report.action !== 'unread') fields.push(`reused=${report.reusedMessages}`, `processed=${report.processedTokens}`, `new=${report.newSpanTokens}`);
  if (report.keptMessages > 0) fields.push(`kept=${report.keptMessages}`);
  if (report.removedNow > 0) fields.push(`removed=${report.removedNow}`);
  if (report.references.length > 0) {
    fields.push(
      `refs=${report.references
        .slice(-REFERENCES_SHOWN)
        .map((sha) => sha.slice(0, REFERENCE_DIGITS))
        .join(',')}`,
    );
  }
  return fields.join('; ');
}

/** The log line for a request the proxy changed (or could not read); undefined for one sent as it came. */
export function contextLogLine(method: string, path: string, report: RequestReport, timeMs: number): string | undefined {
  const count = formatInteger;
  const head = `ollm serve: ${method} ${path} ${report.model}`;
  if (report.action === 'unread') return `${head}: sent as it came (ollm could not read it: ${report.note ?? 'unknown'})`;
  const limit =
    report.replyLimitSent === undefined
      ? undefined
      : `reply limit ${count(report.replyLimitAsked ?? 0)} -> ${count(report.replyLimitSent)} (what the ${count(report.window)}-token window leaves)`;
  if (report.action === 'fits' && !report.serverCut) return limit === undefined ? undefined : `${head}: ${limit}`;
  const parts = [
    `${count(report.tokensBefore)} -> ${count(report.tokensAfter)} tokens (budget ${count(report.budget)} of a ${count(report.window)} window)`,
    report.action === 'reused'
      ? `reused the compaction of ${count(report.reusedMessages)} messages`
      : report.action === 'fits'
        ? 'sent as it came'
        : `compacted ${count(report.processedTokens)} tokens`,
  ];
  if (report.action === 'compacted' && report.reusedMessages > 0) parts.push(`over a cached compaction of ${count(report.reusedMessages)} messages`);
  if (report.keptMessages > 0) parts.push(`its first ${count(report.keptMessages)} messages kept as sent (the prompt cache holds them)`);
  if (report.stages.length > 0) parts.push(report.stages.join(','));
  // References only where something was removed now: a reused compaction's are in its own line.
  if (report.removedNow > 0) {
    const shown = report.references.slice(-3).map((sha) => sha.slice(0, REFERENCE_DIGITS));
    parts.push(`${count(report.removedNow)} removed (ollm recover ${shown.join(', ')}${report.references.length > 3 ? ', ...' : ''})`);
  }
  if (limit !== undefined) parts.push(limit);
  if (report.serverCut) parts.push('the server counted more than estimated, near its window (it may have cut the prompt)');
  parts.push(`${Math.round(timeMs)} ms`);
  return `${head}: ${parts.join(' · ')}`;
}
