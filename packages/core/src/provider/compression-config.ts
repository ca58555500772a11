/** How a provider should compress. Defaults follow gptme's. */
export interface CompressionConfig {
  /** Target size in tokens. `undefined` means never compress automatically. */
  readonly limit?: number;
  /** Tool results larger than this (tokens) may be truncated. Default 2000. */
  readonly maxToolResultTokens: number;
  /** Reasoning is stripped from messages more than this many positions from the end. Default 5. */
  readonly reasoningStripAgeThreshold: number;
  /**
   * Where removed content is saved for recovery (`<logdir>/removed/<sha256>.txt`). Without it,
   * providers still compact but can only record each piece's sha256, and say so in `limitations`.
   */
  readonly logdir?: string;
  /** Provider-specific options, keyed as each provider documents. */
  readonly extraConfig?: Readonly<Record<string, unknown>>;
}

export const DEFAULT_COMPRESSION_CONFIG: CompressionConfig = {
  maxToolResultTokens: 2000,
  reasoningStripAgeThreshold: 5,
};

/** Fills in defaults for any field the caller left out. */
export function resolveCompressionConfig(config: Partial<CompressionConfig> = {}): CompressionConfig {
  const resolved: { -readonly [K in keyof CompressionConfig]: CompressionConfig[K] } = {
    ...DEFAULT_COMPRESSION_CONFIG,
  };
  for (const [key, value] of Object.entries(config)) {
    if (value !== undefined) (resolved as Record<string, unknown>)[key] = value;
  }
  return resolved;
}
