import { describe, expect, it } from 'vitest';
import type { LanguageModel } from './language-model.js';
import { FALLBACK_MODEL_CONTEXT_TOKENS, modelWindow } from './model-window.js';
import { silentLogger } from '../provider/provider-context.js';

/** A model whose `describe()` answers with `describe` and counts how often it was asked. */
function modelDescribing(describe?: () => ReturnType<NonNullable<LanguageModel['describe']>>): LanguageModel & { describeCalls: number } {
  const model: LanguageModel & { describeCalls: number } = {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: 'test',
    describeCalls: 0,
    complete: () => Promise.resolve({ text: '', usage: {} }),
  };
  if (!describe) return model;
  return Object.assign(model, {
    describe: () => {
      model.describeCalls++;
      return describe();
    },
  });
}

describe('modelWindow', () => {
  it('prefers the configured window, else asks the model once, else falls back', async () => {
    const described = modelDescribing(() => Promise.resolve({ contextLength: 4096 }));
    expect(await modelWindow(described, { configured: 1000, logger: silentLogger, providerName: 'test' })).toBe(1000);
    expect(await modelWindow(described, { logger: silentLogger, providerName: 'test' })).toBe(4096);
    expect(await modelWindow(described, { logger: silentLogger, providerName: 'test' })).toBe(4096);
    expect(described.describeCalls).toBe(1);
    expect(await modelWindow(modelDescribing(), { logger: silentLogger, providerName: 'test' })).toBe(FALLBACK_MODEL_CONTEXT_TOKENS);
  });

  it('logs a failed describe() under the provider name and falls back', async () => {
    const lines: string[] = [];
    const logger = { ...silentLogger, debug: (line: string) => lines.push(line) };
    const failing = modelDescribing(() => Promise.reject(new Error('refused')));
    expect(await modelWindow(failing, { logger, providerName: 'summarize' })).toBe(FALLBACK_MODEL_CONTEXT_TOKENS);
    expect(lines).toEqual([`summarize: describe() failed (refused); assuming ${FALLBACK_MODEL_CONTEXT_TOKENS} tokens`]);
  });
});
