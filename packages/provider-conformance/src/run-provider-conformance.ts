import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  TokenCounter,
  createProviderContext,
  createTokenizer,
  isContextProvider,
  resolveCompressionConfig,
  runProvider,
  type CompactionResult,
  type ContextProvider,
  type Message,
  type MessageShapeRuleSet,
  type ProviderContext,
} from '@ollm/core';
import { conversationArbitrary } from './arbitraries/conversation-arbitrary.js';
import { checkProviderOnConversation } from './check-provider-on-conversation.js';
import type { ConformanceFailure } from './conformance-failure.js';
import { listFixtureFiles, loadFixtureConversations, type FixtureSelection } from './fixtures/fixture-conversations.js';

export interface ProviderConformanceOptions {
  /** Each conversation runs once per ratio, with `limit = ratio x its tokens`. Default [0.5, 0.25]. */
  readonly limitRatios?: readonly number[];
  /** `all` adds `../shared/fixtures`; also set by env `OLLM_CONFORMANCE_FIXTURES=all`. Default `repo`. */
  readonly fixtures?: FixtureSelection;
  /** Generated conversations per limit ratio. Default 25 (CI has two cores). */
  readonly numRuns?: number;
  /** Passed to the provider as `config.extraConfig`. */
  readonly extraConfig?: Record<string, unknown>;
  /**
   * Context fields to inject (e.g. a `model`); tokens default to o200k_base. A function is called
   * for every run, so a model created in `beforeAll` (e.g. on a server started there) can be used.
   */
  readonly context?: Partial<ProviderContext> | (() => Partial<ProviderContext>);
  /**
   * The message shape every output must keep (no more often broken than its input). Default
   * `strict`: first a user turn, turns alternating, nothing empty, results right after their call.
   */
  readonly shape?: MessageShapeRuleSet;
  /**
   * Whether compacting the same conversation again gives the same result, with the same counter
   * (every cache warm, as in a live session) and with a new one. Default true; a provider whose
   * output is a model's reply may say false.
   */
  readonly deterministic?: boolean;
}

/** What a compaction says, as data (its timing stats left out): two runs that agree write the same. */
function comparable(result: CompactionResult): unknown {
  const { messages, removed, coveredThrough, limitations, warnings, folded } = result;
  return JSON.parse(JSON.stringify({ messages, removed, coveredThrough, limitations, warnings, folded }));
}

const MAX_SHRINKS = 60;

function describeProvider(createProvider: () => ContextProvider): string {
  try {
    return createProvider().name;
  } catch {
    return 'provider';
  }
}

/**
 * Declares the conformance suite for one provider with vitest `describe` / `it`. Call it at the top
 * level of a test file:
 *
 * ```ts
 * runProviderConformance(() => createTrimProvider());
 * ```
 *
 * `createProvider` is called for every run, so state never leaks between conversations.
 */
export function runProviderConformance(createProvider: () => ContextProvider, options: ProviderConformanceOptions = {}): void {
  const limitRatios = options.limitRatios ?? [0.5, 0.25];
  const selection = options.fixtures ?? (process.env['OLLM_CONFORMANCE_FIXTURES'] === 'all' ? 'all' : 'repo');
  const numRuns = options.numRuns ?? 25;
  // `all` runs every tau-bench dialog (200) in one test; give it room beyond the default timeout.
  const fixtureTimeout = selection === 'all' ? 600_000 : undefined;
  // One counter for the whole suite: its cache is keyed by message object, so a fixture is
  // tokenised once however many ratios it runs at.
  const staticContext = typeof options.context === 'function' ? undefined : options.context;
  const tokens = staticContext?.tokens ?? new TokenCounter(createTokenizer('o200k_base'));

  const contextForRun = (): ProviderContext => {
    const fields = typeof options.context === 'function' ? options.context() : (options.context ?? {});
    return createProviderContext({ ...fields, tokens, ...(fields.state ? { state: new Map(fields.state) } : {}) });
  };

  /** The config of one run: `limit = ratio x the conversation's tokens`. */
  const configFor = (messages: readonly Message[], ratio: number) =>
    resolveCompressionConfig({
      limit: Math.floor(ratio * tokens.countMessages(messages)),
      ...(options.extraConfig ? { extraConfig: options.extraConfig } : {}),
    });

  const check = (messages: readonly Message[], ratio: number): Promise<ConformanceFailure[]> =>
    checkProviderOnConversation(createProvider(), messages, configFor(messages, ratio), contextForRun(), { shape: options.shape ?? 'strict' });

  describe(`${describeProvider(createProvider)}: ContextProvider conformance`, () => {
    it('is a context provider (spec v2, or v1 as first shipped) with a name', () => {
      const provider = createProvider();
      expect(isContextProvider(provider)).toBe(true);
      expect(provider.name.length).toBeGreaterThan(0);
      expect(['string', 'undefined']).toContain(typeof provider.description);
      if (provider.specificationVersion === 'v2') expect(['boolean', 'undefined']).toContain(typeof provider.usesModel);
    });

    // v2 has no shouldCompress (the host decides when to compact); v1 must answer it.
    it.skipIf(createProvider().specificationVersion !== 'v1')('does not ask to compress when no limit is set (v1: shouldCompress)', () => {
      // CompressionConfig: no limit means never compress automatically.
      const provider = createProvider();
      if (provider.specificationVersion !== 'v1') throw new Error('a v1 provider was expected');
      const [messages] = fc.sample(conversationArbitrary({ longToolOutputs: false }), { numRuns: 1, seed: 1 });
      expect(provider.shouldCompress(messages!, resolveCompressionConfig({ extraConfig: options.extraConfig }), contextForRun())).toBe(false);
    });

    it('handles an empty conversation and a lone system prompt', async () => {
      const system: Message = { id: 'system', role: 'system', parts: [{ type: 'text', text: 'You are a helpful assistant.' }] };
      for (const messages of [[], [system]]) {
        for (const ratio of limitRatios) expect(await check(messages, ratio), `${messages.length} messages at ratio ${ratio}`).toEqual([]);
      }
    });

    for (const ratio of limitRatios) {
      it(`keeps every rule on generated conversations at limit ${ratio} x tokens`, async () => {
        await fc.assert(
          // Every shrink step runs the provider twice on a large conversation: cap shrinking so a
          // failure is reported well within the test timeout, still smaller than first found.
          fc.asyncProperty(fc.limitShrink(conversationArbitrary(), MAX_SHRINKS), async (messages) => {
            expect(await check(messages, ratio)).toEqual([]);
          }),
          { numRuns },
        );
      });
    }

    // Caches that outlive a call (by part, by content, per counter) must never change an answer.
    it.skipIf(options.deterministic === false)(
      'compacts a generated conversation again into the same result, with the same counter and with a new one',
      async () => {
        const ratio = limitRatios[0] ?? 0.5;
        await fc.assert(
          fc.asyncProperty(fc.limitShrink(conversationArbitrary(), MAX_SHRINKS), async (messages) => {
            const config = configFor(messages, ratio);
            const compacted = async (context: ProviderContext) => comparable(await runProvider(createProvider(), messages, config, context));
            const first = await compacted(contextForRun());
            expect(await compacted(contextForRun())).toEqual(first);
            if (staticContext?.tokens === undefined) {
              const fresh = { ...contextForRun(), tokens: new TokenCounter(createTokenizer('o200k_base')) };
              expect(await compacted(fresh)).toEqual(first);
            }
          }),
          { numRuns: Math.max(5, Math.floor(numRuns / 2)) },
        );
      },
    );

    describe(`real transcripts (${selection})`, () => {
      const files = listFixtureFiles(selection);
      if (files.length === 0) it.skip('no fixture transcripts found under fixtures/', () => {});
      for (const file of files) {
        it(`keeps every rule on ${file.label}`, { timeout: fixtureTimeout }, async () => {
          const conversations = await loadFixtureConversations(file);
          // A reader that silently returns nothing would make this test pass on nothing.
          expect(conversations.length, `conversations read from ${file.label}`).toBeGreaterThan(0);
          for (const conversation of conversations) {
            expect(conversation.messages.length, `messages in ${conversation.label}`).toBeGreaterThan(0);
            for (const ratio of limitRatios) {
              expect(await check(conversation.messages, ratio), `${conversation.label} at limit ${ratio} x tokens`).toEqual([]);
            }
          }
        });
      }
    });
  });
}
