/** The factor never goes below 1: the exact local count is a floor, whatever a server reports. */
export const CALIBRATION_FLOOR = 1;
/** Chat templates and other tokenizers add tokens, but not this many: more is a reading to distrust. */
export const CALIBRATION_CEILING = 2;
/** Readings this far from the local count (either way) are ignored, not averaged in. */
export const CALIBRATION_OUTLIER_RATIO = 3;
/** Weight of a new reading in the moving average. */
const SMOOTHING = 0.3;

/** What became of one reading. */
export type CalibrationReading = 'used' | 'ignored' | 'invalid';

/**
 * Learns how far the local token estimate is from what a model server reports (Ollama
 * `prompt_eval_count`, OpenAI `usage.prompt_tokens`) and scales estimates by it. The factor is
 * an exponential moving average, clamped to [1, 2]: a server that under-reports (older Ollama
 * versions do when the prompt is cached or cut) can never make the runtime think a request is
 * smaller than the exact local count. A reading more than 3x off either way is ignored.
 */
export class TokenCalibration {
  private average = 1;
  private samples = 0;
  private ignored = 0;

  /** The factor estimates are scaled by, within [CALIBRATION_FLOOR, CALIBRATION_CEILING]. */
  get ratio(): number {
    return Math.min(CALIBRATION_CEILING, Math.max(CALIBRATION_FLOOR, this.average));
  }

  get sampleCount(): number {
    return this.samples;
  }

  get ignoredCount(): number {
    return this.ignored;
  }

  record(estimatedTokens: number, reportedTokens: number): CalibrationReading {
    if (!(estimatedTokens > 0) || !(reportedTokens > 0) || !Number.isFinite(reportedTokens)) return 'invalid';
    const observed = reportedTokens / estimatedTokens;
    if (observed > CALIBRATION_OUTLIER_RATIO || observed < 1 / CALIBRATION_OUTLIER_RATIO) {
      this.ignored += 1;
      return 'ignored';
    }
    // The first reading is taken as it is (clamped when read); later ones move the average by 30%.
    this.average = this.samples === 0 ? observed : this.average * (1 - SMOOTHING) + observed * SMOOTHING;
    this.samples += 1;
    return 'used';
  }

  /**
   * Raises the factor to at least `ratio` (clamped), as a refusal that counted more than the
   * estimate shows; later readings move it as any reading does.
   */
  raiseTo(ratio: number): void {
    if (!Number.isFinite(ratio)) return;
    const raised = Math.min(CALIBRATION_CEILING, ratio);
    if (raised <= this.average) return;
    this.average = raised;
    this.samples = Math.max(1, this.samples);
  }

  /** The estimate scaled by what the server has reported; never below the estimate itself. */
  apply(estimatedTokens: number): number {
    return Math.ceil(estimatedTokens * this.ratio);
  }
}
