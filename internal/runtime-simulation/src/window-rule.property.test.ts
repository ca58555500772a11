import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TokenCounter, checkMessageShape, createTokenizer, type MessageShapeRuleSet } from '@ollm/core';
import { ContextManager, ContextOverflowError, resolveReplyReserve } from '@ollm/runtime';
import { startFakeModelServer } from '@ollm/fake-model-server';
import { createOllamaModel } from '@ollm/model-ollama';
import { SIMULATION_MODEL, chatRequests } from './simulated-session.js';
import { SIMULATION_PIPELINE, createSimulationRegistry } from './simulation-registry.js';

const counter = new TokenCounter(createTokenizer('o200k_base'));
const VOCABULARY = ['parser', 'retry', 'window', 'budget', 'module', 'value', 'error', 'config', 'token', 'reply'];

/** Prose of about `tokens` o200k tokens. */
function prose(tokens: number, seed: number): string {
  const words = Array.from({ length: Math.max(1, tokens) }, (_, index) => VOCABULARY[(index * 7 + seed) % VOCABULARY.length]!);
  return words.join(' ');
}

type Turn = { readonly kind: 'chat' | 'paste' | 'tool'; readonly size: number };

const scenario = fc.record({
  window: fc.constantFrom(2_048, 4_096, 8_192, 16_384),
  reserveShare: fc.option(fc.double({ min: 0.05, max: 0.45, noNaN: true }), { nil: undefined }),
  reportedScale: fc.constantFrom(0.1, 0.5, 1, 1.3, 2.5),
  withGoalAware: fc.boolean(),
  shape: fc.constantFrom<MessageShapeRuleSet>('openai', 'strict'),
  turns: fc.array(fc.record({ kind: fc.constantFrom<Turn['kind']>('chat', 'chat', 'paste', 'tool'), size: fc.double({ min: 0.01, max: 1.1, noNaN: true }) }), {
    minLength: 3,
    maxLength: 18,
  }),
});

/**
 * The window rule, for random conversations, pastes, reply reserves and servers that report the
 * prompt size 10x too low to 2.5x too high: no chat request the fake server receives holds more
 * than `window - replyReserve` by o200k (the project's tokenizer), every one carries the reserve
 * as its reply limit, and a message refused as too large is one that could never fit. With
 * `shape: 'strict'`, every request also keeps the strict message shape (core's
 * `checkMessageShape`): the conversation added has it, and no stage — the window guard included —
 * may break it.
 */
describe('the window rule (property, real Ollama client, fake model server)', () => {
  it('never sends a request over window - replyReserve', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ window, reserveShare, reportedScale, withGoalAware, shape, turns }) => {
        const server = await startFakeModelServer({ reportedPromptTokenScale: reportedScale });
        try {
          const reserve = resolveReplyReserve(window, reserveShare === undefined ? undefined : Math.max(16, Math.floor(window * reserveShare)));
          const model = createOllamaModel({ host: server.url, model: SIMULATION_MODEL, numCtx: window, maxRetries: 0 });
          const manager = new ContextManager({
            contextSize: window,
            replyReserve: reserve,
            systemPrompt: 'You are a careful engineer.',
            registry: createSimulationRegistry({ withGoalAware }),
            autoPipeline: SIMULATION_PIPELINE,
            model,
            modelName: SIMULATION_MODEL,
            shape,
          });
          const limit = window - reserve;
          for (const [index, turn] of turns.entries()) {
            const tokens = Math.floor(turn.size * window * (turn.kind === 'chat' ? 0.1 : 1));
            const user = manager.addMessage({
              role: 'user',
              parts: [{ type: 'text', text: turn.kind === 'tool' ? `run step ${index}` : prose(tokens, index) }],
            });
            const turnMessages = [user];
            if (turn.kind === 'tool') {
              const callId = `call-${index}`;
              turnMessages.push(
                manager.addMessage({ role: 'assistant', parts: [{ type: 'tool-call', callId, name: 'bash', input: { command: `step ${index}` } }] }),
                manager.addMessage({ role: 'tool', parts: [{ type: 'tool-result', callId, output: prose(tokens, index) }] }),
              );
            }
            try {
              const result = await manager.complete();
              if (shape === 'strict') expect(checkMessageShape(result.request.messages, 'strict')).toEqual([]);
              manager.addMessage({ role: 'assistant', parts: [{ type: 'text', text: result.text || '(empty)' }] });
            } catch (error) {
              if (!ContextOverflowError.isInstance(error)) throw error;
              // Refused only when the message with the system prompt alone is over the limit.
              expect(
                error.messageId,
                `${error.message} ${JSON.stringify(manager.activeMessages.map((message) => [message.role, counter.countMessage(message)]))} system ${counter.countMessage(manager.systemMessage()!)}`,
              ).toBe(user.id);
              // Both as the budget counts them: calibrated by what the server reported.
              expect(error.messageTokens! + manager.budget().systemTokens).toBeGreaterThan(limit);
              manager.removeMessage(user.id);
              // A strict conversation drops the whole turn, so it keeps the shape (the call could come first).
              if (shape === 'strict') for (const message of turnMessages.slice(1)) manager.removeMessage(message.id);
            }
            await manager.maybeCompact();
          }
          const chats = chatRequests(server).filter((request) => !JSON.stringify(request.body).includes('<conversation>'));
          for (const request of chats) {
            expect(request.promptTokens).toBeLessThanOrEqual(limit);
            expect(request.maxTokens).toBe(reserve);
          }
        } finally {
          await server.close();
        }
      }),
      {
        numRuns: 100,
        examples: [
          // Found by this property: the guard dropped every reply to the latest user message, so the next one touched it (strict).
          [
            {
              window: 8_192,
              reserveShare: undefined,
              reportedScale: 1.3,
              withGoalAware: false,
              shape: 'strict',
              turns: [
                { kind: 'paste', size: 0.6153564453125 },
                { kind: 'tool', size: 0.0120849609375 },
                { kind: 'tool', size: 0.0125732421875 },
                { kind: 'chat', size: 0.01 },
                { kind: 'chat', size: 0.01 },
              ],
            },
          ],
        ],
      },
    );
  }, 300_000);
});
