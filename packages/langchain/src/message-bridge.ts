import type { BaseMessage } from '@langchain/core/messages';
import type { Message, MessagePart } from '@ollm/core';
import { fromOllmMessage } from './from-ollm-message.js';
import type { ConvertedMessage, PartOrigin } from './part-origin.js';
import { indexOfPositionalId, sourceKey, toOllmMessage } from './to-ollm-message.js';

/** A request's messages as ollm sees them. */
export interface ConvertedRequest {
  readonly converted: readonly ConvertedMessage[];
  readonly messages: readonly Message[];
  /** `keys[i]`: what message i sends to the model, for the incremental compactor's `sourceKeys`. */
  readonly keys: readonly string[];
}

/** A message going back to LangChain, and the request position it stands for (undefined: ollm made it). */
export interface ReturnedMessage {
  readonly message: BaseMessage;
  readonly index: number | undefined;
}

interface CachedConversion {
  readonly converted: ConvertedMessage;
  readonly pinned: boolean;
}

/**
 * Converts a request's LangChain messages to ollm messages and the compacted ones back, keeping
 * what it needs across the steps of a run: a message is converted once (while it stays at its
 * position with the same content), each part remembers the block, call or kwarg it came from,
 * and a changed message is rebuilt once, so the messages a cached compaction holds go back as
 * the same LangChain objects step after step. A message ollm did not change goes back as the
 * very object the request held.
 *
 * The first human message (the task) and the last one (what the agent is doing now) are pinned:
 * no stage edits or drops them.
 */
export class MessageBridge {
  readonly #conversions = new WeakMap<BaseMessage, CachedConversion>();
  readonly #origins = new WeakMap<MessagePart, PartOrigin>();
  /** ollm messages exactly as converted, by the key of the LangChain message they came from. */
  readonly #untouched = new WeakMap<Message, string>();
  readonly #rebuilt = new WeakMap<Message, { readonly key: string; readonly messages: readonly BaseMessage[] }>();

  toOllm(sources: readonly BaseMessage[]): ConvertedRequest {
    const firstHuman = sources.findIndex((source) => source.type === 'human');
    let lastHuman = -1;
    for (let index = sources.length - 1; index >= 0; index -= 1) {
      if (sources[index]!.type === 'human') {
        lastHuman = index;
        break;
      }
    }
    const converted = sources.map((source, index) => {
      const key = sourceKey(source);
      const pinned = index === firstHuman || index === lastHuman;
      const cached = this.#conversions.get(source);
      if (cached && cached.pinned === pinned && cached.converted.index === index && cached.converted.key === key) return cached.converted;
      const fresh = toOllmMessage(source, index, key, pinned);
      for (const [part, origin] of fresh.origins) this.#origins.set(part, origin);
      this.#untouched.set(fresh.message, key);
      this.#conversions.set(source, { converted: fresh, pinned });
      return fresh;
    });
    return { converted, messages: converted.map((entry) => entry.message), keys: converted.map((entry) => entry.key) };
  }

  fromOllm(output: readonly Message[], request: ConvertedRequest): ReturnedMessage[] {
    return output.flatMap((message): ReturnedMessage[] => {
      const index = indexOfPositionalId(message.id);
      const converted = index === undefined ? undefined : request.converted[index];
      if (index === undefined || !converted) return fromOllmMessage(message, undefined, () => undefined).map((made) => ({ message: made, index: undefined }));
      if (message === converted.message || this.#untouched.get(message) === converted.key) return [{ message: converted.source, index }];
      const cached = this.#rebuilt.get(message);
      if (cached && cached.key === converted.key) return cached.messages.map((made) => ({ message: made, index }));
      const rebuilt = fromOllmMessage(message, converted, this.#originFinder(converted));
      this.#rebuilt.set(message, { key: converted.key, messages: rebuilt });
      return rebuilt.map((made) => ({ message: made, index }));
    });
  }

  /**
   * A part's origin: known by the part object (stages keep the parts they do not change), else
   * an equal part of the source message not matched yet (a stage that copied it).
   */
  #originFinder(converted: ConvertedMessage): (part: MessagePart) => PartOrigin | undefined {
    const unmatched = new Set(converted.message.parts);
    let forms: Map<MessagePart, string> | undefined;
    return (part) => {
      const known = this.#origins.get(part);
      if (known) {
        unmatched.delete(part);
        return known;
      }
      forms ??= new Map([...unmatched].map((candidate) => [candidate, JSON.stringify(candidate)]));
      const form = JSON.stringify(part);
      for (const candidate of unmatched) {
        if (forms.get(candidate) !== form) continue;
        unmatched.delete(candidate);
        return converted.origins.get(candidate);
      }
      return undefined;
    };
  }
}
