import { isCheckpointMessage, type ContextProvider, type Message, type MessagePart } from '@ollm/core';
import { ContextManager, ProviderRegistry } from '@ollm/runtime';
import { startFakeModelServer } from '@ollm/fake-model-server';
import { createOllamaModel } from '@ollm/model-ollama';
import type { BenchConversation } from './fixture-set.js';

/** One assistant message and the tool results answering it. */
export type Turn = readonly Message[];

/** The turns of SWE-agent trajectories, in order (system prompt, task and `exit` patch left out). */
export function turnsOf(conversations: readonly BenchConversation[]): Turn[] {
  const turns: Message[][] = [];
  for (const conversation of conversations) {
    for (const message of conversation.messages) {
      if (message.role === 'assistant' && message.metadata?.['sourceRole'] !== 'exit') turns.push([message]);
      else if (message.role === 'tool' && turns.length > 0) turns[turns.length - 1]!.push(message);
    }
  }
  return turns;
}

/** A copy of a turn with fresh message and tool call ids, so every turn of the session is new. */
function freshTurn(turn: Turn, serial: number): Message[] {
  const renamed = (callId: string) => `${callId}-t${serial}`;
  return turn.map((message, index) => ({
    id: `turn-${serial}-${index}`,
    role: message.role,
    parts: message.parts.map((part): MessagePart =>
      part.type === 'tool-call' || part.type === 'tool-result' ? { ...part, callId: renamed(part.callId) } : part,
    ),
  }));
}

export interface GoalAwareCompression {
  readonly turn: number;
  readonly provider: string;
  /** Prompt tokens the fake server received during this compression (its own o200k count). */
  readonly modelTokensSent: number;
  readonly modelCalls: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** All checkpoint messages in the context after this compression. */
  readonly checkpointTokens: number;
  readonly checkpoints: number;
}

export interface GoalAwareSessionResult {
  readonly pipeline: string;
  readonly contextSize: number;
  readonly turns: number;
  readonly compactions: readonly GoalAwareCompression[];
  readonly compressionsPerThousandTurns: number;
  /** Largest prompt (system + context) seen after any turn's compression step. */
  readonly maximumContextTokens: number;
  readonly maximumCheckpointTokens: number;
  readonly errors: readonly string[];
}

export interface GoalAwareSessionOptions {
  readonly turns: number;
  readonly contextSize: number;
  readonly pipeline: string;
  /** The rule-based providers the pipeline may name, besides goal-aware. */
  readonly providers: readonly ContextProvider[];
}

/**
 * A session growing turn by turn under core's ContextManager, compressing with `pipeline`, where
 * goal-aware summarises through @ollm/model-ollama talking to the loopback fake server.
 */
export async function runGoalAwareSession(
  goalAware: ContextProvider,
  conversations: readonly BenchConversation[],
  options: GoalAwareSessionOptions,
): Promise<GoalAwareSessionResult> {
  const server = await startFakeModelServer();
  try {
    const registry = new ProviderRegistry();
    for (const provider of [goalAware, ...options.providers]) registry.register(provider);
    const model = createOllamaModel({
      host: server.url,
      model: 'fake-llama:8b',
      numCtx: options.contextSize,
      maxRetries: 1,
      retryDelay: { initialDelayMs: 10, maxDelayMs: 50 },
    });
    const first = conversations[0]!;
    const system = first.messages.find((message) => message.role === 'system');
    const task = first.messages.find((message) => message.role === 'user');
    const manager = new ContextManager({
      contextSize: options.contextSize,
      systemPrompt: system ? system.parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n') : '',
      registry,
      model,
      modelName: 'fake-llama:8b',
      autoPipeline: options.pipeline,
      modelProviders: [goalAware.name],
      extraConfig: { modelContextTokens: options.contextSize },
    });
    const errors: string[] = [];
    manager.on('compression-error', (event) => errors.push(`${event.provider}: ${event.error.message}`));
    if (task) manager.addMessage({ role: 'user', parts: task.parts });
    const pool = turnsOf(conversations);
    const compactions: GoalAwareCompression[] = [];
    let maximumContextTokens = 0;
    let maximumCheckpointTokens = 0;
    for (let turn = 1; turn <= options.turns; turn += 1) {
      for (const message of freshTurn(pool[(turn - 1) % pool.length]!, turn)) manager.addMessage(message);
      const requestsBefore = server.requests.length;
      const outcome = await manager.maybeCompress();
      const budget = manager.budget();
      maximumContextTokens = Math.max(maximumContextTokens, budget.totalTokens);
      if (!outcome) continue;
      const sent = server.requests.slice(requestsBefore).filter((request) => request.path === '/api/chat');
      const checkpoints = manager.activeMessages.filter(isCheckpointMessage);
      const checkpointTokens = checkpoints.reduce((sum, message) => sum + manager.tokens.countMessage(message), 0);
      maximumCheckpointTokens = Math.max(maximumCheckpointTokens, checkpointTokens);
      compactions.push({
        turn,
        provider: outcome.provider,
        modelTokensSent: sent.reduce((sum, request) => sum + request.promptTokens, 0),
        modelCalls: sent.length,
        tokensBefore: outcome.result.stats.tokensBefore,
        tokensAfter: outcome.result.stats.tokensAfter,
        checkpointTokens,
        checkpoints: checkpoints.length,
      });
    }
    return {
      pipeline: options.pipeline,
      contextSize: options.contextSize,
      turns: options.turns,
      compactions,
      compressionsPerThousandTurns: (compactions.length * 1000) / options.turns,
      maximumContextTokens,
      maximumCheckpointTokens,
      errors: [...new Set(errors)].slice(0, 10),
    };
  } finally {
    await server.close();
  }
}
