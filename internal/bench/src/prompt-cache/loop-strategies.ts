import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { TokenCounter } from '@ollm/core';
import { startFakeModelServer } from '@ollm/fake-model-server';
import fold from '@ollm/plugin-fold';
import { createMemoryStore, startProxyServer } from '@ollm/serve';
import { AGENT_TOOLS, initialMessages, stepMessages, taskFile } from './agent-task.js';
import { renderPrompt, type PromptRequest } from './prefix-share.js';

/** The reply limit coding agents send on every request, whatever the window. */
export const AGENT_REPLY_LIMIT = 32_000;
/** The share of the window kept for the reply where an agent or server must reserve one (ollm's default). */
export const REPLY_SHARE = 0.15;
/** An agent's own compaction fires once the next prompt and its reply would pass this share of the window. */
export const AGENT_COMPACT_TRIGGER = 0.95;
/** Tokens of the summary an agent's own compaction writes (a model reply; Codex's and opencode's run 500-2,000). */
export const AGENT_SUMMARY_TOKENS = 1_000;

export interface LoopRun {
  /** The prompts the model server processed, in order (summary requests included). */
  readonly prompts: readonly PromptRequest[];
  /** Of those, the ones that were the agent's own summary requests. */
  readonly summaryRequests: number;
  /** Tokens the model had to write for summaries (an agent's own compaction). */
  readonly summaryTokensWritten: number;
  /** Times the conversation was rewritten (a compaction, the server's truncation). */
  readonly rewrites: number;
}

export interface LoopSettings {
  readonly seed: number;
  readonly steps: number;
  readonly window: number;
  readonly tokens: TokenCounter;
}

export interface LoopStrategy {
  readonly name: string;
  readonly description: string;
  run(settings: LoopSettings): Promise<LoopRun>;
}

function promptTokens(request: PromptRequest, tokens: TokenCounter): number {
  return tokens.countText(renderPrompt(request));
}

/** The client's whole history each step, as an agent sends it; the requests of steps 1..n. */
function histories(seed: number, steps: number): ChatCompletionMessageParam[][] {
  const history = initialMessages(seed, steps);
  const out: ChatCompletionMessageParam[][] = [];
  for (let step = 1; step <= steps; step += 1) {
    history.push(...stepMessages(seed, step));
    out.push([...history]);
  }
  return out;
}

/**
 * No compaction, the server's own truncation (Ollama's): while the prompt and the reserve are over
 * the window, the oldest message after the system prompt is dropped, silently.
 */
export const truncatingServer: LoopStrategy = {
  name: 'no compaction (server truncates)',
  description: 'the whole history each step; over the window the server drops the oldest non-system messages (Ollama)',
  async run({ seed, steps, window, tokens }) {
    const room = Math.floor(window * (1 - REPLY_SHARE));
    const prompts: PromptRequest[] = [];
    let rewrites = 0;
    for (const messages of histories(seed, steps)) {
      const kept = [...messages];
      let cut = false;
      while (kept.length > 2 && promptTokens({ tools: AGENT_TOOLS, messages: kept }, tokens) > room) {
        kept.splice(1, 1);
        cut = true;
      }
      if (cut) rewrites += 1;
      prompts.push({ tools: AGENT_TOOLS, messages: kept });
    }
    return { prompts, summaryRequests: 0, summaryTokensWritten: 0, rewrites };
  },
};

/** The summary an agent's model would write: the files read and what each defines, about AGENT_SUMMARY_TOKENS long. */
function agentSummary(seed: number, upTo: number, tokens: TokenCounter): string {
  const lines = ['Summary of the work so far (the conversation was compacted):'];
  for (let step = 1; step <= upTo; step += 1) {
    const names = [...taskFile(seed, step).matchAll(/^def (\w+)/gm)].slice(0, 3).map((match) => match[1]);
    lines.push(`- f${String(step).padStart(2, '0')}.py defines ${names.join(', ')} and more.`);
  }
  let text = lines.join('\n');
  while (tokens.countText(text) > AGENT_SUMMARY_TOKENS) text = text.slice(0, Math.floor(text.length * 0.9));
  return text;
}

/**
 * The agent's own compaction, as Codex and opencode do it at a window they are told: once the next
 * prompt and its reply would pass 95% of the window, the model is asked for a summary (the history
 * and a summarise instruction: one more prompt), and the history becomes the system prompt, the
 * user's messages and that summary.
 */
export const agentCompaction: LoopStrategy = {
  name: "the agent's own compaction",
  description: 'a model-written summary once the prompt and reply would pass 95% of the window (Codex, opencode with the window set)',
  async run({ seed, steps, window, tokens }) {
    const trigger = Math.floor(window * AGENT_COMPACT_TRIGGER);
    const reserve = Math.floor(window * REPLY_SHARE);
    const prompts: PromptRequest[] = [];
    let history = initialMessages(seed, steps);
    let summaryRequests = 0;
    let summaryTokensWritten = 0;
    let rewrites = 0;
    for (let step = 1; step <= steps; step += 1) {
      const next = [...history, ...stepMessages(seed, step)];
      if (step > 1 && promptTokens({ tools: AGENT_TOOLS, messages: next }, tokens) + reserve > trigger) {
        // The summary request: the history so far and the instruction, then the history rewritten.
        prompts.push({
          tools: AGENT_TOOLS,
          messages: [...history, { role: 'user', content: 'Summarize the conversation so far for a continuation: the task, what was done, what is left.' }],
        });
        const summary = agentSummary(seed, step - 1, tokens);
        summaryRequests += 1;
        summaryTokensWritten += tokens.countText(summary);
        rewrites += 1;
        history = [...initialMessages(seed, steps), { role: 'user', content: summary }];
      }
      history = [...history, ...stepMessages(seed, step)];
      prompts.push({ tools: AGENT_TOOLS, messages: [...history] });
    }
    return { prompts, summaryRequests, summaryTokensWritten, rewrites };
  },
};

/**
 * `ollm serve` at its defaults (fold, `--window`), in this process: the whole history each step
 * through the real proxy and the official openai client, with the agents' 32,000-token reply
 * limit; the prompts are what the model server received.
 */
export function ollmServeStrategy(settings: { readonly targetShare?: number } = {}): LoopStrategy {
  return {
    name: settings.targetShare === undefined ? 'ollm serve' : `ollm serve (target ${settings.targetShare})`,
    description: 'the whole history each step, through `ollm serve --window W` (fold, the defaults)',
    async run({ seed, steps, window }) {
      const model = `agent:${window}`;
      const fake = await startFakeModelServer({ models: [{ name: model, contextLength: window }] });
      const home = mkdtempSync(join(tmpdir(), 'ollm-bench-prompt-cache-'));
      const store = createMemoryStore();
      let rewrites = 0;
      const proxy = await startProxyServer({
        upstream: fake.url,
        api: 'openai',
        port: 0,
        stages: [fold],
        pipeline: 'fold',
        store,
        logdir: home,
        window,
        ...(settings.targetShare !== undefined ? { targetShare: settings.targetShare } : {}),
        onChat: (report) => {
          if (report.action === 'compacted') rewrites += 1;
        },
      });
      try {
        const client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'sk-bench', maxRetries: 0 });
        for (const messages of histories(seed, steps)) {
          await client.chat.completions.create({ model, messages, tools: AGENT_TOOLS, max_tokens: AGENT_REPLY_LIMIT });
        }
        const prompts = fake.requests
          .filter((request) => request.path === '/v1/chat/completions')
          .map((request) => {
            const body = request.body as { tools?: unknown; messages: unknown[] };
            return { tools: body.tools, messages: body.messages };
          });
        return { prompts, summaryRequests: 0, summaryTokensWritten: 0, rewrites };
      } finally {
        await proxy.close();
        await fake.close();
        await store.close();
        rmSync(home, { recursive: true, force: true });
      }
    },
  };
}

export const ollmServe = ollmServeStrategy();

export const LOOP_STRATEGIES: readonly LoopStrategy[] = [truncatingServer, agentCompaction, ollmServe];
