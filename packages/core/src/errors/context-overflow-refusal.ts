/** What a model server's refusal of a prompt over its window says, when it is one. */
export interface ContextOverflowRefusal {
  /** The prompt size the server counted, when it said (llama.cpp's `n_prompt_tokens`, OpenAI's and Anthropic's wording). */
  readonly promptTokens?: number;
  /** The window the server runs, when it said (llama.cpp's `n_ctx`, "maximum context length is N"). */
  readonly window?: number;
}

/** Words model servers refuse an over-window prompt with: llama.cpp, vLLM and OpenAI, Anthropic, LM Studio. */
const OVERFLOW_WORDS =
  /exceed_context_size|exceeds the available context|context_length_exceeded|maximum context length|prompt is too long|context (?:window|length|size)/i;
const COUNTS = [/"n_prompt_tokens"\s*:\s*(\d+)/, /\((\d+) in the messages/, /resulted in (\d+) tokens/, /prompt is too long: (\d+) tokens/];
const WINDOWS = [/"n_ctx"\s*:\s*(\d+)/, /maximum context length is (\d+)/i, /tokens > (\d+) maximum/];

/** The overflow a 400/413 answer reports, or undefined for any other answer. */
export function readContextOverflowRefusal(status: number | undefined, body: string): ContextOverflowRefusal | undefined {
  if ((status !== 400 && status !== 413) || !OVERFLOW_WORDS.test(body)) return undefined;
  const first = (patterns: readonly RegExp[]) => {
    for (const pattern of patterns) {
      const match = pattern.exec(body);
      if (match) return Number(match[1]);
    }
    return undefined;
  };
  const promptTokens = first(COUNTS);
  const window = first(WINDOWS);
  return { ...(promptTokens !== undefined ? { promptTokens } : {}), ...(window !== undefined && window > 0 ? { window } : {}) };
}
