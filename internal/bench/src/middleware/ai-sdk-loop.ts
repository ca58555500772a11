import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { contextMiddleware } from '@ollm/ai-sdk';
import { generateText, stepCountIs, tool, wrapLanguageModel, type LanguageModelMiddleware } from 'ai';
import { z } from 'zod';
import type { AgentRun } from './agent-run.js';
import type { LoopOutcome } from './loop-outcome.js';
import { MIDDLEWARE_MODEL, MIDDLEWARE_REPLY_LIMIT, MIDDLEWARE_WINDOW, type MiddlewareRig } from './middleware-rig.js';
import { StepTimeline } from './step-timeline.js';
import { isWindowRefusal } from './window-refusal.js';

/**
 * One `generateText` agent loop (`stopWhen: stepCountIs(steps + 1)`, a `read_file` tool) against
 * the fake server through `@ai-sdk/openai-compatible`, the model plain or wrapped by a new
 * `contextMiddleware` (fold). A timing middleware, the same both ways, marks each model call: its
 * `transformParams` times the context middleware's (the middleware's own time), its `wrapGenerate`
 * the provider call.
 */
export async function runAiSdkLoop(rig: MiddlewareRig, run: AgentRun, wrapped: boolean): Promise<LoopOutcome> {
  const timeline = new StepTimeline(wrapped);
  let largestHistoryTokens = 0;
  const context = wrapped
    ? contextMiddleware({
        contextSize: MIDDLEWARE_WINDOW,
        logdir: rig.logdir,
        onCompaction: (event) => {
          timeline.mark(event.action);
          largestHistoryTokens = Math.max(largestHistoryTokens, event.tokensBefore);
        },
      })
    : undefined;
  const timing: LanguageModelMiddleware = {
    specificationVersion: 'v3',
    async transformParams(options) {
      const call = timeline.start();
      if (!context?.transformParams) return options.params;
      const started = performance.now();
      try {
        return await context.transformParams(options);
      } finally {
        call.middlewareMs = performance.now() - started;
      }
    },
    async wrapGenerate({ doGenerate }) {
      const result = await doGenerate();
      timeline.end();
      return result;
    },
  };
  const provider = createOpenAICompatible({ name: 'fake', baseURL: rig.baseUrl });
  const read_file = tool({
    description: 'Read a file of the project',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => run.readFile(path),
  });
  let refused = false;
  try {
    const result = await generateText({
      model: wrapLanguageModel({ model: provider(MIDDLEWARE_MODEL.name), middleware: timing }),
      system: run.system,
      prompt: run.task,
      tools: { read_file },
      maxOutputTokens: MIDDLEWARE_REPLY_LIMIT,
      maxRetries: 0,
      stopWhen: stepCountIs(run.steps + 1),
    });
    if (result.steps.length !== run.steps + 1 || result.text !== run.answer()) {
      throw new Error(`the AI SDK loop ended after ${result.steps.length} steps (${run.steps + 1} expected) with "${result.text}"`);
    }
  } catch (error) {
    if (wrapped || !isWindowRefusal(error)) throw error;
    refused = true;
  }
  const { samples, unansweredStep } = timeline.finish();
  return { samples, refusedStep: refused ? unansweredStep : undefined, largestHistoryTokens };
}
