/**
 * What the proxy keeps between requests: compactions of message prefixes (so the next turn of a
 * conversation compacts only its new span) and the content compaction removed (the recovery
 * store, read by `ollm recover`). One small interface, so one machine keeps it in files and a
 * gateway with several replicas shares it through Redis.
 */
export interface ProxyStore {
  /** `files` or `redis`, for logs and the `x-ollm-context` header. */
  readonly kind: string;
  /**
   * The cached compactions under `keys`, in the same order (undefined where there is none). The
   * proxy asks for every prefix of a request at once, so a store answers in one round trip.
   */
  getCompactions(keys: readonly string[]): Promise<(CachedCompaction | undefined)[]>;
  /** Keeps `entry` under `key` (a later put under the same key replaces it). */
  putCompaction(key: string, entry: CachedCompaction): Promise<void>;
  /**
   * Saves removed content under its sha256 (the name a placeholder gives). Secrets are redacted
   * by the caller's recovery path before this is called; the store keeps what it is given.
   */
  putRemoved(sha256: string, content: string): Promise<void>;
  /** The removed content saved under a full sha256, or undefined. */
  getRemoved(sha256: string): Promise<string | undefined>;
  /**
   * Takes a lock every proxy sharing this store respects, for at most `ttlMs` (a crashed holder
   * never blocks the others for longer). Resolves to a release function, or undefined when another
   * holder has it.
   */
  tryLock(key: string, ttlMs: number): Promise<(() => Promise<void>) | undefined>;
  close(): Promise<void>;
}

/** A compaction of the first `coveredMessages` messages of a conversation, as wire messages. */
export interface CachedCompaction {
  /** How many of the client's messages it stands for. */
  readonly coveredMessages: number;
  /** The messages sent in their place, in the request's own wire format (OpenAI or Ollama). */
  readonly messages: readonly unknown[];
  /** Tokens of the covered messages before, and of `messages`. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** The stages that changed the messages, in order. */
  readonly stages: readonly string[];
  /** sha256 of every piece removed along the way (each is in the recovery store). */
  readonly references: readonly string[];
}
