import type { LanguageModel } from '@ollm/core';
import { fakeClientSettings, type ClientKind, type FakeClientOptions, type FakeModelServer } from '@ollm/fake-model-server';
import { createOllamaModel } from '@ollm/model-ollama';
import { createOpenAIModel } from '@ollm/model-openai';

/** A real client library pointed at the loopback fake server, with short retry delays for tests. */
export function createModel(server: FakeModelServer, kind: ClientKind, options: FakeClientOptions = {}): LanguageModel {
  const settings = fakeClientSettings(server, options);
  return kind === 'ollama' ? createOllamaModel(settings) : createOpenAIModel(settings);
}
