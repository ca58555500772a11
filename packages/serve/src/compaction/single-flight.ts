/**
 * Runs one task per key at a time in this process: a second caller with the same key while the
 * first runs gets the first one's promise instead of doing the work again.
 */
export class SingleFlight<T> {
  readonly #running = new Map<string, Promise<T>>();

  run(key: string, task: () => Promise<T>): Promise<T> {
    const running = this.#running.get(key);
    if (running) return running;
    const started = task().finally(() => this.#running.delete(key));
    this.#running.set(key, started);
    return started;
  }

  get size(): number {
    return this.#running.size;
  }
}
