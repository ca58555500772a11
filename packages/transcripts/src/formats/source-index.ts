import type { FormatCodec, SourceReference } from './format-codec.js';

type Sources = readonly ReadonlyMap<string, SourceReference>[];
const byDocument = new WeakMap<object, Sources>();

/** Remembers, per parsed document, which source object each message id came from. */
export function rememberSources(document: unknown, sources: Sources): void {
  if (document !== null && typeof document === 'object') byDocument.set(document, sources);
}

/** The sources of a document; rebuilt by reading it again when it was not parsed here. */
export function sourcesOf(codec: FormatCodec, document: unknown, file: string): Sources {
  const known = document !== null && typeof document === 'object' ? byDocument.get(document) : undefined;
  if (known) return known;
  try {
    const sources = codec.read(document, file).map((conversation) => conversation.sources);
    rememberSources(document, sources);
    return sources;
  } catch {
    // A document that does not read (e.g. built by hand) has no sources: everything is written plainly.
    return [];
  }
}
