/**
 * Learns how far the local token estimate is from what a model server reports
 * (Ollama `prompt_eval_count`, OpenAI `usage.prompt_tokens`) and scales estimates by it.
 * An exponential moving average keeps one odd reading from swinging the budget.
 */
export class TokenCalibration {
  private factor = 1;
  private samples = 0;

  get ratio(): number {
    return this.factor;
  }

  get sampleCount(): number {
    return this.samples;
  }

  record(estimatedTokens: number, reportedTokens: number): void {
    if (!(estimatedTokens > 0) || !(reportedTokens > 0)) return;
    const observed = reportedTokens / estimatedTokens;
    this.factor = this.samples === 0 ? observed : this.factor * 0.7 + observed * 0.3;
    this.samples += 1;
  }

  /** The estimate scaled by what the server has reported (never below the raw estimate's floor of 1). */
  apply(estimatedTokens: number): number {
    return Math.ceil(estimatedTokens * this.factor);
  }
}
