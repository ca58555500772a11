import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { contextMiddleware } from '@ollm/langchain';
import { createAgent, createMiddleware } from 'langchain';
import { z } from 'zod';
import type { AgentRun } from './agent-run.js';
import type { LoopOutcome } from './loop-outcome.js';
import { MIDDLEWARE_MODEL, MIDDLEWARE_REPLY_LIMIT, MIDDLEWARE_WINDOW, type MiddlewareRig } from './middleware-rig.js';
import { StepTimeline } from './step-timeline.js';
import { isWindowRefusal } from './window-refusal.js';

type ModelCallHook = (request: unknown, handler: (request: unknown) => Promise<unknown>) => Promise<unknown>;

/**
 * One `createAgent` loop (a `read_file` tool, `ChatOpenAI` pointed at the fake server), plain or
 * with a new `contextMiddleware` (fold). One timing middleware, the same both ways, wraps each
 * model call; with the context middleware it calls that middleware's `wrapModelCall` and times
 * the handler inside it, so the middleware's own time is its hook less the call it hands on.
 */
export async function runLangChainLoop(rig: MiddlewareRig, run: AgentRun, wrapped: boolean): Promise<LoopOutcome> {
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
  const inner = context?.wrapModelCall as ModelCallHook | undefined;
  const timing = createMiddleware({
    name: 'OllmBenchTiming',
    wrapModelCall: async (request, handler) => {
      const call = timeline.start();
      if (!inner) {
        const reply = await handler(request);
        timeline.end();
        return reply;
      }
      const started = performance.now();
      let handlerMs = 0;
      const reply = await inner(request, async (sent) => {
        const handed = performance.now();
        try {
          return await handler(sent as typeof request);
        } finally {
          handlerMs = performance.now() - handed;
        }
      });
      call.middlewareMs = performance.now() - started - handlerMs;
      timeline.end();
      return reply as Awaited<ReturnType<typeof handler>>;
    },
  });
  const readFile = tool(async ({ path }: { path: string }) => run.readFile(path), {
    name: 'read_file',
    description: 'Read a file of the project',
    schema: z.object({ path: z.string() }),
  });
  const agent = createAgent({
    model: new ChatOpenAI({
      model: MIDDLEWARE_MODEL.name,
      apiKey: 'fake',
      configuration: { baseURL: rig.baseUrl },
      maxRetries: 0,
      maxTokens: MIDDLEWARE_REPLY_LIMIT,
    }),
    tools: [readFile],
    systemPrompt: run.system,
    middleware: [timing],
  });
  let refused = false;
  try {
    const result = await agent.invoke({ messages: [{ role: 'user', content: run.task }] }, { recursionLimit: 4 * run.steps + 10 });
    const results = result.messages.filter((message) => ToolMessage.isInstance(message)).length;
    const last = result.messages.at(-1);
    if (results !== run.steps || !AIMessage.isInstance(last) || last.text !== run.answer()) {
      throw new Error(`the LangChain loop ended after ${results} tool results (${run.steps} expected) with "${last?.text ?? ''}"`);
    }
  } catch (error) {
    if (wrapped || !isWindowRefusal(error)) throw error;
    refused = true;
  }
  const { samples, unansweredStep } = timeline.finish();
  return { samples, refusedStep: refused ? unansweredStep : undefined, largestHistoryTokens };
}
