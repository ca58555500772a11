/** What an upstream's refusal of a prompt over its window says, when it is one. */
export interface UpstreamOverflow {
  /** The prompt size the server counted, when it said (llama.cpp's `n_prompt_tokens`, OpenAI's and Anthropic's wording). */
  readonly promptTokens?: number;
}

/** Words model servers refuse an over-window prompt with: llama.cpp, vLLM and OpenAI, Anthropic, LM Studio. */
const OVERFLOW_WORDS =
  /exceed_context_size|exceeds the available context|context_length_exceeded|maximum context length|prompt is too long|context (?:window|length|size)/i;
const COUNTS = [/"n_prompt_tokens"\s*:\s*(\d+)/, /\((\d+) in the messages/, /resulted in (\d+) tokens/, /prompt is too long: (\d+) tokens/];

/** The overflow a 400/413 answer reports, or undefined for any other answer. */
export function readUpstreamOverflow(status: number | undefined, body: string): UpstreamOverflow | undefined {
  if ((status !== 400 && status !== 413) || !OVERFLOW_WORDS.test(body)) return undefined;
  for (const pattern of COUNTS) {
    const match = pattern.exec(body);
    if (match) return { promptTokens: Number(match[1]) };
  }
  return {};
}
