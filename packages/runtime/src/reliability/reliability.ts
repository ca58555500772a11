/** `unknown`: the model's size is not known (no size in its name, none reported by the server). */
export type ReliabilityLevel = 'high' | 'medium' | 'low' | 'critical' | 'unknown';

export interface Reliability {
  /** 0..1 */
  readonly score: number;
  readonly level: ReliabilityLevel;
}

/** The model-size factor used for the score when the size is unknown (its level is then `unknown`). */
const UNKNOWN_SIZE_FACTOR = 0.5;

/**
 * The score: model-size factor x max(1 - 0.15 x compactions, 0.3) x context confidence.
 * An unknown model size gives the level `unknown` rather than a guess: a name without a size
 * (`my-model`, OpenAI models) says nothing about how well the model copes with compaction.
 */
export function computeReliability(input: ReliabilityInput): Reliability {
  const { modelSizeBillions: size, contextConfidence = 1 } = input;
  const compactionCount = input.compactionCount ?? input.compressionCount ?? 0;
  const modelFactor = size === undefined ? UNKNOWN_SIZE_FACTOR : size >= 70 ? 0.95 : size >= 30 ? 0.85 : size >= 13 ? 0.7 : size >= 7 ? 0.5 : 0.3;
  const compactionPenalty = Math.max(1 - compactionCount * 0.15, 0.3);
  const score = modelFactor * compactionPenalty * Math.min(Math.max(contextConfidence, 0), 1);
  return { score, level: size === undefined ? 'unknown' : reliabilityLevel(score) };
}

/** What the score is computed from: the model's size, the compactions so far, the context confidence. */
export type ReliabilityInput = {
  readonly modelSizeBillions: number | undefined;
  readonly contextConfidence?: number;
} & (
  | { readonly compactionCount: number; readonly compressionCount?: undefined }
  | {
      /** @deprecated Use `compactionCount`. */
      readonly compressionCount: number;
      readonly compactionCount?: undefined;
    }
);

/** high >= 85%, medium 60-84%, low 40-59%, critical < 40%. */
export function reliabilityLevel(score: number): Exclude<ReliabilityLevel, 'unknown'> {
  if (score >= 0.85) return 'high';
  if (score >= 0.6) return 'medium';
  if (score >= 0.4) return 'low';
  return 'critical';
}

/**
 * Model size in billions of parameters from a model name (`llama3.2:3b`, `qwen2.5-coder:32b-instruct`,
 * `mixtral:8x7b`) or an Ollama `parameter_size` (`8.0B`, `567M`). Undefined when neither says.
 */
export function parseModelSize(nameOrParameterSize: string | undefined): number | undefined {
  if (!nameOrParameterSize) return undefined;
  const text = nameOrParameterSize.toLowerCase();
  const experts = /(\d+)x(\d+(?:\.\d+)?)b\b/.exec(text);
  if (experts) return Number(experts[1]) * Number(experts[2]);
  const billions = /(?:^|[^a-z0-9.])(\d+(?:\.\d+)?)\s*b\b/.exec(text) ?? /^(\d+(?:\.\d+)?)b$/.exec(text);
  if (billions) return Number(billions[1]);
  const millions = /(?:^|[^a-z0-9.])(\d+(?:\.\d+)?)\s*m\b/.exec(text);
  if (millions) return Number(millions[1]) / 1000;
  return undefined;
}

/**
 * The warning, shown when reliability falls to low or critical, and when a session starts
 * there (no compaction yet: then it says the model starts at that level).
 */
export function reliabilityWarning(model: string, compactionCount: number, level: ReliabilityLevel = 'low'): string {
  const cause =
    compactionCount === 0
      ? `Your model (${model}) starts at reliability ${level}, before any compaction.`
      : `Your model (${model}) has compressed the conversation ${compactionCount} time${compactionCount === 1 ? '' : 's'}.`;
  return [
    '⚠️ Context Compression Warning',
    cause,
    'Small models may lose context accuracy after multiple compactions.',
    '',
    'Recommendations:',
    '- Continue if making good progress',
    '- Start new conversation if seeing hallucinations',
    '- Use larger model for complex long-term tasks',
  ].join('\n');
}
