/**
 * Share of the window at or above which a reported prompt size may be of a cut prompt: Ollama
 * drops the oldest messages of a prompt over its window until the rest fits (or cuts a single
 * message over it to the window) and reports the size of what it kept, so nothing else tells.
 */
export const AT_WINDOW_SHARE = 0.9;
/** How far over ollm's estimate a count at the window must be to say the estimate was short and the server cut the prompt. */
const OVER_ESTIMATE = 1.02;
/** How far under ollm's estimate a server's count of a prompt over the window may be before it says the server cut it. */
const FAR_UNDER = 1.1;

export interface ReportedPrompt {
  /** The prompt size the server reported. */
  readonly reported: number;
  /** What ollm sent by its own count (messages and tools). */
  readonly sent: number;
  /** ollm's estimate of the server's count: `sent` times what it learnt of this server. */
  readonly estimate: number;
  readonly window: number;
}

/**
 * True when a reported prompt size is no count of what was sent but of what the server kept: at
 * its window and over ollm's estimate (the estimate was short, the prompt over the window), or far
 * under an estimate that was over the window. Such a size is never learnt from as a count.
 */
export function reportedCutPrompt(prompt: ReportedPrompt): boolean {
  if (prompt.reported >= prompt.window * AT_WINDOW_SHARE && prompt.reported > prompt.estimate * OVER_ESTIMATE) return true;
  return prompt.estimate > prompt.window && prompt.reported * FAR_UNDER < prompt.estimate;
}
