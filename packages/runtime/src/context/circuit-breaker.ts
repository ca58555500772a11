/**
 * Stops automatic model compaction after `threshold` consecutive failures, so a broken model
 * server cannot cause a compaction loop; a success closes it again. Manual requests still run.
 */
export class CircuitBreaker {
  readonly threshold: number;
  private failures = 0;

  constructor(threshold = 3) {
    this.threshold = threshold;
  }

  get consecutiveFailures(): number {
    return this.failures;
  }

  get isOpen(): boolean {
    return this.failures >= this.threshold;
  }

  /** Records a failure; returns true when this failure opened the circuit. */
  recordFailure(): boolean {
    this.failures += 1;
    return this.failures === this.threshold;
  }

  recordSuccess(): void {
    this.failures = 0;
  }
}
