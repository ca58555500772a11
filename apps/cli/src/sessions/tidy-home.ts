import { collectRecoveryGarbage, findStaleFiles, removeStaleFiles, type OllmConfig, type RecoveryGarbageReport, type StaleFile } from '@ollm/runtime';
import { expireCompactions } from '@ollm/serve/store';
import { formatInteger } from '../output/format-number.js';
import { plural } from '../output/plural.js';

export interface TidyHomeOptions {
  readonly home: string;
  /** The logdir whose recovery store is collected; default the home. */
  readonly logdir?: string;
  readonly recovery: Pick<OllmConfig['recovery'], 'maxAgeDays' | 'maxTotalMB'>;
  readonly dryRun?: boolean;
  /** Collect the store only when it is past a limit (the chat at start). */
  readonly onlyWhenDue?: boolean;
  readonly now?: Date;
}

export interface TidyHomeReport {
  readonly garbage: RecoveryGarbageReport;
  /** Stale temporary and lock files removed (with `dryRun`: found). */
  readonly staleFiles: readonly StaleFile[];
  /** `ollm serve`'s cached compactions nobody read for 7 days, deleted (with `dryRun`: found). */
  readonly expiredCompactions: readonly string[];
}

/**
 * What `ollm gc` does, and the chat at start (`recovery.autoCollect`): removes the temporary and
 * lock files of processes that ended (a SIGKILL mid-write), then applies the recovery store's
 * retention policy (runtime's `collectRecoveryGarbage`).
 */
export function tidyHome(options: TidyHomeOptions): TidyHomeReport {
  const staleOptions = {
    home: options.home,
    ...(options.logdir !== undefined ? { logdirs: [options.logdir] } : {}),
    ...(options.now ? { now: options.now } : {}),
  };
  const staleFiles = options.dryRun === true ? findStaleFiles(staleOptions) : removeStaleFiles(staleOptions);
  // Before the retention: what the remaining compactions name stays recoverable, what only expired ones named can go.
  const expiredCompactions = expireCompactions({ home: options.home, dryRun: options.dryRun === true, ...(options.now ? { now: options.now.getTime() } : {}) });
  const garbage = collectRecoveryGarbage({
    home: options.home,
    ...(options.logdir !== undefined ? { logdir: options.logdir } : {}),
    maxAgeDays: options.recovery.maxAgeDays,
    maxTotalMB: options.recovery.maxTotalMB,
    dryRun: options.dryRun === true,
    onlyWhenDue: options.onlyWhenDue === true,
    ...(options.now ? { now: options.now } : {}),
  });
  return { garbage, staleFiles, expiredCompactions };
}

/**
 * At the start of a chat: stale temporary and lock files go, and with `recovery.autoCollect` (the
 * default) the recovery store is collected when it is past a limit. Returns the line to print
 * when anything was deleted, else undefined.
 */
export function tidyHomeAtStart(config: Pick<OllmConfig, 'home' | 'recovery'>): string | undefined {
  const staleFiles = removeStaleFiles({ home: config.home });
  const deleted = config.recovery.autoCollect
    ? collectRecoveryGarbage({ home: config.home, maxAgeDays: config.recovery.maxAgeDays, maxTotalMB: config.recovery.maxTotalMB, onlyWhenDue: true })
    : undefined;
  const parts = [
    deleted !== undefined && deleted.deleted.length > 0
      ? `deleted ${entries(deleted.deleted.length)} (${formatBytes(deleted.deletedBytes)}) no session or snapshot references from the recovery store (recovery.maxAgeDays ${config.recovery.maxAgeDays}, recovery.maxTotalMB ${config.recovery.maxTotalMB})`
      : '',
    staleFiles.length > 0 ? `removed ${plural(staleFiles.length, 'stale temporary or lock file')} left by ended processes` : '',
  ].filter(Boolean);
  return parts.length > 0 ? `${parts.join('; ')}; see ollm gc --help` : undefined;
}

/** The lines `ollm gc` prints: what was (or would be) deleted, with counts and bytes, and what was kept and why. */
export function describeTidy(report: TidyHomeReport, recovery: TidyHomeOptions['recovery'], folder: string): string[] {
  const { garbage, staleFiles, expiredCompactions } = report;
  const verb = garbage.dryRun ? 'would delete' : 'deleted';
  const byAge = garbage.deleted.filter((entry) => entry.reason === 'age').length;
  const bySize = garbage.deleted.length - byAge;
  const reasons = [
    byAge > 0 ? `${formatInteger(byAge)} older than ${recovery.maxAgeDays} days` : '',
    bySize > 0 ? `${formatInteger(bySize)} over the ${recovery.maxTotalMB} MB cap (oldest first)` : '',
  ].filter(Boolean);
  const lines = [
    garbage.deleted.length === 0
      ? `nothing to delete in ${folder}: ${entries(garbage.entries)} (${formatBytes(garbage.bytes)})`
      : `${verb} ${formatInteger(garbage.deleted.length)} of ${entries(garbage.entries)} (${formatBytes(garbage.deletedBytes)} of ${formatBytes(garbage.bytes)}) from ${folder}: ${reasons.join(', ')}`,
  ];
  const kept = garbage.entries - garbage.deleted.length;
  if (kept > 0) {
    const why = [
      garbage.referenced > 0 ? `${formatInteger(garbage.referenced)} named by a session's saved context, a snapshot or a compaction ollm serve keeps` : '',
      garbage.recent > 0 ? `${formatInteger(garbage.recent)} saved in the last hour` : '',
    ].filter(Boolean);
    lines.push(`kept ${formatInteger(kept)}${why.length > 0 ? `: ${why.join(', ')}` : ''}`);
  }
  if (garbage.stillOverLimit) lines.push(`the store is still over ${recovery.maxTotalMB} MB: everything left is referenced or recent`);
  if (staleFiles.length > 0) {
    const bytes = staleFiles.reduce((sum, file) => sum + file.bytes, 0);
    lines.push(
      `${garbage.dryRun ? 'would remove' : 'removed'} ${plural(staleFiles.length, 'stale temporary or lock file')} (${formatBytes(bytes)}) left by ended processes`,
    );
  }
  if (expiredCompactions.length > 0) {
    lines.push(`${garbage.dryRun ? 'would delete' : 'deleted'} ${plural(expiredCompactions.length, 'compaction')} ollm serve kept that nobody read for 7 days`);
  }
  return lines;
}

function entries(count: number): string {
  return `${formatInteger(count)} ${count === 1 ? 'entry' : 'entries'}`;
}

/** `0 B`, `812 B`, `14.6 KB`, `3.2 MB` (powers of 1,024, as `recovery.maxTotalMB`). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${formatInteger(bytes)} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
