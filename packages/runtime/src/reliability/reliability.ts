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
  const modelFactor = size === undefined ? UNKNOWN_SIZE_FACTOR : sizeFactor(size).factor;
  const compactionPenalty = penaltyFor(compactionCount);
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

/** How well a model of a size keeps a conversation through compactions: small, medium or large. */
export type ModelSizeClass = 'small' | 'medium' | 'large';

/** The per-size guidance: how many model-summary compactions a model of the class keeps well. */
export interface CompactionGuidance {
  readonly sizeClass: ModelSizeClass;
  /** The sizes of the class, for the warning: `under 7B`, `7B-30B`, `30B and up`. */
  readonly sizes: string;
  /** [min, max]: the class keeps min to max compactions well; past max, context accuracy may drop. */
  readonly keepsWell: readonly [number, number];
}

/** Small models (< 7B) keep 2-3 compactions well, medium (7B-30B) 3-5, large (30B+) 5-7. */
export const COMPACTION_GUIDANCE: Readonly<Record<ModelSizeClass, CompactionGuidance>> = {
  small: { sizeClass: 'small', sizes: 'under 7B', keepsWell: [2, 3] },
  medium: { sizeClass: 'medium', sizes: '7B-30B', keepsWell: [3, 5] },
  large: { sizeClass: 'large', sizes: '30B and up', keepsWell: [5, 7] },
};

/** The size factors of the score, largest first, each with its size class. */
const SIZE_FACTORS: readonly { readonly atLeast: number; readonly factor: number; readonly sizeClass: ModelSizeClass }[] = [
  { atLeast: 70, factor: 0.95, sizeClass: 'large' },
  { atLeast: 30, factor: 0.85, sizeClass: 'large' },
  { atLeast: 13, factor: 0.7, sizeClass: 'medium' },
  { atLeast: 7, factor: 0.5, sizeClass: 'medium' },
  { atLeast: 0, factor: 0.3, sizeClass: 'small' },
];

function sizeFactor(sizeBillions: number): (typeof SIZE_FACTORS)[number] {
  return SIZE_FACTORS.find((entry) => sizeBillions >= entry.atLeast) ?? SIZE_FACTORS.at(-1)!;
}

function penaltyFor(compactionCount: number): number {
  return Math.max(1 - compactionCount * 0.15, 0.3);
}

/** The guidance for a model size in billions (`parseModelSize`); undefined when the size is unknown. */
export function compactionGuidance(sizeBillions: number | undefined): CompactionGuidance | undefined {
  if (sizeBillions === undefined || !Number.isFinite(sizeBillions)) return undefined;
  return COMPACTION_GUIDANCE[sizeFactor(sizeBillions).sizeClass];
}

/**
 * The compaction counts at which the guidance warns: the first past the lower bound (min + 1),
 * the first past the upper bound (max + 1), then every max compactions more. Small (2-3): 3, 4,
 * 7, 10, …; medium (3-5): 4, 6, 11, 16, …; large (5-7): 6, 8, 15, 22, ….
 */
export function guidanceMarks(guidance: CompactionGuidance, upTo: number): number[] {
  const [min, max] = guidance.keepsWell;
  const marks: number[] = [];
  for (let mark = min + 1; mark <= upTo; mark = mark === min + 1 ? max + 1 : mark + max) marks.push(mark);
  return marks;
}

/** The highest guidance mark at or below `count`; 0 when there is none (or no guidance). */
function markReached(guidance: CompactionGuidance | undefined, count: number): number {
  return guidance ? (guidanceMarks(guidance, count).at(-1) ?? 0) : 0;
}

/** What the warning rule remembers between checks. */
export interface ReliabilityWatch {
  readonly level: ReliabilityLevel;
  readonly summaryCount: number;
  /** The highest guidance mark a warning has covered (0: none): the count must pass the next one to warn again. */
  readonly warnedMark: number;
}

/**
 * Why a reliability warning is due: `start` (the session starts at low or critical, or a resumed
 * one already past a guidance mark), `drop` (the level fell to low or critical), `guidance` (the
 * model-summary count reached the next guidance mark).
 */
export type ReliabilityWarningReason = 'start' | 'drop' | 'guidance';

export interface ReliabilityCheck {
  /** Set when a warning is due (one, whatever the reasons). */
  readonly warn?: ReliabilityWarningReason;
  /** The state for the next check. */
  readonly watch: ReliabilityWatch;
}

/**
 * When to show the reliability warning: call it after every change (`previous` undefined at the
 * start of a session) and keep the returned `watch`. It warns at the start when the level is low
 * or critical, when the level drops to low or critical, and when the model-summary count reaches
 * the next of `guidanceMarks` — never twice for the same mark, and never for a count that went
 * down (a restored snapshot: the marks above it may warn again once passed again). Without
 * guidance (unknown size) only the level counts; an `unknown` level never warns.
 */
export function checkReliabilityWarning(
  previous: ReliabilityWatch | undefined,
  current: { readonly level: ReliabilityLevel; readonly summaryCount: number; readonly guidance?: CompactionGuidance | undefined },
): ReliabilityCheck {
  const { level, summaryCount, guidance } = current;
  const mark = markReached(guidance, summaryCount);
  const low = level === 'low' || level === 'critical';
  if (level === 'unknown') return { watch: { level, summaryCount, warnedMark: 0 } };
  if (previous === undefined || previous.level === 'unknown') {
    const warn = low || mark > 0 ? 'start' : undefined;
    return warn ? { warn, watch: { level, summaryCount, warnedMark: mark } } : { watch: { level, summaryCount, warnedMark: 0 } };
  }
  const covered = Math.min(previous.warnedMark, mark);
  const warn = low && levelRank[level] > levelRank[previous.level] ? 'drop' : mark > covered ? 'guidance' : undefined;
  return warn ? { warn, watch: { level, summaryCount, warnedMark: mark } } : { watch: { level, summaryCount, warnedMark: covered } };
}

/** Higher is worse: a warning is for a fall, not for a restore that brought reliability back up. */
const levelRank: Readonly<Record<Exclude<ReliabilityLevel, 'unknown'>, number>> = { high: 0, medium: 1, low: 2, critical: 3 };

/**
 * The warning, shown when reliability falls to low or critical, when a session starts there (no
 * compaction yet: then it says the model starts at that level), and, with `guidance`, when the
 * model-summary count passes what the model's size keeps well (`checkReliabilityWarning`).
 * Without `guidance` the wording is the general one.
 */
export function reliabilityWarning(model: string, compactionCount: number, level: ReliabilityLevel = 'low', guidance?: CompactionGuidance): string {
  return [
    '⚠️ Context Compression Warning',
    ...(guidance ? guidanceLines(model, compactionCount, level, guidance) : generalLines(model, compactionCount, level)),
    '',
    'Recommendations:',
    '- Continue if making good progress',
    '- Start new conversation if seeing hallucinations',
    '- Use larger model for complex long-term tasks',
  ].join('\n');
}

function generalLines(model: string, compactionCount: number, level: ReliabilityLevel): string[] {
  return [
    compactionCount === 0
      ? `Your model (${model}) starts at reliability ${level}, before any compaction.`
      : `Your model (${model}) has compressed the conversation ${times(compactionCount)}.`,
    'Small models may lose context accuracy after multiple compactions.',
  ];
}

function guidanceLines(model: string, compactionCount: number, level: ReliabilityLevel, guidance: CompactionGuidance): string[] {
  const [min, max] = guidance.keepsWell;
  const keeps = `${guidance.sizeClass} models (${guidance.sizes}) keep ${min}-${max} compactions well`;
  return compactionCount === 0
    ? [`Your model (${model}) starts at reliability ${level}, before any compaction.`, `${capitalise(keeps)}; past ${max}, context accuracy may drop.`]
    : [
        `Your model (${model}) has compacted ${times(compactionCount)}; ${keeps}.`,
        `Reliability is ${level}: past ${max} compactions, ${guidance.sizeClass} models may lose context accuracy.`,
      ];
}

function times(count: number): string {
  return `${count} time${count === 1 ? '' : 's'}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
