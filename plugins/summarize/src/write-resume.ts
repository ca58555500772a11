import { cutAtSentence, splitIntoChunks, tokenPrefix, type LanguageModel, type Message, type TokenCounting } from '@ollm/core';
import { partEntry, partPrompt, renderForResume, resumePrompt } from './resume-prompts.js';

export interface ResumeSettings {
  readonly model: LanguageModel;
  readonly tokens: TokenCounting;
  readonly modelContextTokens: number;
  readonly resumeMaxTokens: number;
  readonly maxToolResultTokens: number;
  readonly temperature: number;
  readonly abortSignal?: AbortSignal;
}

export interface ResumeOutcome {
  /** The RESUME: its four sections, within one reply. */
  readonly text: string;
  /**
   * When the RESUME asked for is longer than one reply may be: the part summaries, in order, to
   * be kept after it (the conversation was written up in parts so the restart can reach its target).
   */
  readonly parts: string;
  readonly modelInputTokens: number;
  readonly modelOutputTokens: number;
  readonly modelCalls: number;
  readonly chunks: number;
}

/** Tokens a server's chat template adds beyond the messages: kept free in every request. */
const TEMPLATE_MARGIN = 64;
/** The RESUME never asks for more than this share of the model's window as its reply. */
const MAXIMUM_OUTPUT_SHARE = 0.25;

/**
 * Asks the model for a RESUME of `messages` (gptme's `/compact summarize`) of about
 * `resumeMaxTokens`. A conversation too large for the model's window is summarised in parts
 * first, and the RESUME is written from them. When more is asked for than one reply may hold (a
 * quarter of the window), the conversation is written up in enough parts to hold it, and the parts
 * come back too (`parts`), to be kept after the RESUME. Every request obeys the window rule
 * against the model's own window: prompt + reply limit + a template margin fit it (the parts are
 * cut to fit when they do not together).
 */
export async function writeResume(messages: readonly Message[], settings: ResumeSettings): Promise<ResumeOutcome> {
  const { tokens } = settings;
  const usage = { modelInputTokens: 0, modelOutputTokens: 0, modelCalls: 0 };
  const call = async (prompt: Message[], maxOutputTokens: number): Promise<string> => {
    settings.abortSignal?.throwIfAborted();
    const result = await settings.model.complete({
      messages: prompt,
      maxOutputTokens,
      temperature: settings.temperature,
      ...(settings.abortSignal ? { abortSignal: settings.abortSignal } : {}),
    });
    usage.modelCalls += 1;
    usage.modelInputTokens += result.usage.inputTokens ?? tokens.countMessages(prompt);
    usage.modelOutputTokens += result.usage.outputTokens ?? tokens.countText(result.text);
    return cutAtSentence(result.text.trim(), maxOutputTokens, tokens.tokenizer);
  };
  const entries = messages.filter((message) => message.role !== 'system').map((message, index) => renderForResume(message, index, settings));
  const replyCap = Math.max(16, Math.floor(settings.modelContextTokens * MAXIMUM_OUTPUT_SHARE));
  const resumeTokens = Math.max(16, Math.min(settings.resumeMaxTokens, replyCap));
  const overhead = tokens.countMessages(resumePrompt('', resumeTokens));
  const budget = Math.max(32, settings.modelContextTokens - resumeTokens - overhead - TEMPLATE_MARGIN);
  // What the parts must hold beyond the RESUME itself, when more is asked for than one reply.
  const beyond = Math.max(0, settings.resumeMaxTokens - resumeTokens);
  const total = entries.reduce((sum, entry) => sum + tokens.countText(entry) + 1, 0);
  const wantedParts = beyond > 0 ? Math.ceil(beyond / replyCap) : 1;
  const partTargetFor = (count: number) => Math.max(32, Math.min(replyCap, Math.floor((beyond > 0 ? beyond : resumeTokens) / count)));
  const partBudget = Math.max(
    32,
    settings.modelContextTokens - partTargetFor(wantedParts) - tokens.countMessages(partPrompt('', 0, 1, replyCap)) - TEMPLATE_MARGIN,
  );
  const chunkBudget = beyond > 0 ? Math.min(partBudget, Math.max(64, Math.ceil(total / wantedParts))) : budget;
  const chunks = splitIntoChunks(entries, chunkBudget, tokens, "[… cut to fit the model's window]");
  if (chunks.length === 1 && beyond === 0) return { text: await call(resumePrompt(chunks[0]!, resumeTokens), resumeTokens), parts: '', chunks: 1, ...usage };
  // Never more than the part budget was measured with: prompt + reply fit the window.
  const partTarget = beyond > 0 ? Math.min(partTargetFor(chunks.length), partTargetFor(wantedParts)) : partTargetFor(chunks.length);
  const parts: string[] = [];
  // The parts as the RESUME prompt quotes them (escaped); `parts` is what the restart keeps.
  const quoted: string[] = [];
  for (const [index, body] of chunks.entries()) {
    const part = await call(partPrompt(body, index, chunks.length, partTarget), partTarget);
    if (part === '') continue;
    parts.push(`[part ${index + 1}]\n${part}`);
    quoted.push(partEntry(part, index));
  }
  // Parts that do not fit one request together are each cut to their share of it.
  const partsTokens = quoted.reduce((sum, part) => sum + tokens.countText(part) + 2, 0);
  const fitted = partsTokens <= budget ? quoted : quoted.map((part) => tokenPrefix(part, Math.floor(budget / quoted.length) - 2, tokens.tokenizer));
  const text = fitted.length === 0 ? '' : await call(resumePrompt(fitted.join('\n\n'), resumeTokens), resumeTokens);
  const kept = beyond > 0 && text !== '' ? tokenPrefix(parts.join('\n\n'), beyond, tokens.tokenizer) : '';
  return { text, parts: kept, chunks: chunks.length, ...usage };
}
