import { InvalidArgumentError } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { modelApiFromFlags } from './model-api-from-flags.js';

describe('modelApiFromFlags', () => {
  it('takes --api as given, whatever --base-url says', () => {
    expect(modelApiFromFlags({ api: 'openai' })).toBe('openai');
    expect(modelApiFromFlags({ api: 'ollama', baseUrl: 'http://127.0.0.1:8080/v1' })).toBe('ollama');
  });

  it('reads --base-url alone as --api openai', () => {
    expect(modelApiFromFlags({ baseUrl: 'http://127.0.0.1:8080/v1' })).toBe('openai');
  });

  it("leaves the choice to the caller's default without either flag", () => {
    expect(modelApiFromFlags({})).toBeUndefined();
  });

  it('refuses an unknown --api, listing the APIs', () => {
    let caught: unknown;
    try {
      modelApiFromFlags({ api: 'grpc', baseUrl: 'http://127.0.0.1:8080/v1' });
    } catch (error) {
      caught = error;
    }
    expect(InvalidArgumentError.isInstance(caught)).toBe(true);
    expect((caught as Error).message).toBe('Unknown --api "grpc". APIs: ollama, openai.');
  });
});
