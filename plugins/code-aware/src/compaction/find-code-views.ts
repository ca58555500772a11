import type { Message, ToolCallPart } from '@ollm/core';
import { isCheckpointMessage } from '@ollm/core';
import { CodeAwareCache, stringBytes, uncachedCodeAware } from '../cache/code-aware-cache.js';
import type { CodeView } from '../views/code-view.js';
import { detectOutputView, readCommandOf } from '../views/detect-tool-view.js';
import { findCodeBlocks } from '../views/find-code-blocks.js';
import { commandOf, findHeredocWrites } from '../views/find-heredoc-writes.js';
import { parseReadCommand, type ReadCommand } from '../views/read-command.js';

/** Key of one message part, `messageIndex:partIndex`. */
export function partKey(messageIndex: number, partIndex: number): string {
  return `${messageIndex}:${partIndex}`;
}

/**
 * The kinds of result a view's own derivations are cached as, under the content the view was
 * found in (`partContent` of its part), e.g. `plan:file-view:{...}:0`.
 */
export interface ViewCacheKinds {
  readonly plan: string;
  readonly trimmedLines: string;
}

/** The views of a conversation, each with the cache kinds of its plan and trimmed lines. */
export interface FoundCodeViews {
  readonly views: CodeView[];
  readonly cacheKinds: ReadonlyMap<CodeView, ViewCacheKinds>;
}

/** The views found in one content, as found the first time (with that time's indexes). */
interface FoundInContent {
  readonly views: readonly CodeView[];
  /** Per view, the kinds its derivations are cached as: the same strings each time, so their hashes are kept. */
  readonly cacheKinds: readonly ViewCacheKinds[];
}

function viewBytes(view: CodeView): number {
  let bytes = 128 + stringBytes(view.before) + stringBytes(view.after);
  for (const line of view.lines) bytes += 48 + 2 * (line.prefix.length + line.text.length);
  return bytes;
}

function foundBytes(found: FoundInContent): number {
  return 32 + found.views.reduce((sum, view, index) => sum + viewBytes(view) + 2 * stringBytes(found.cacheKinds[index]!.plan), 0);
}

/** Views of one part at this part's indexes: the remembered ones when they already are. */
function placed(views: readonly CodeView[], messageIndex: number, partIndex: number): readonly CodeView[] {
  if (views.every((view) => view.messageIndex === messageIndex && view.partIndex === partIndex)) return views;
  return views.map((view) => ({ ...view, messageIndex, partIndex }));
}

class ViewCollector {
  readonly views: CodeView[] = [];
  readonly cacheKinds = new Map<CodeView, ViewCacheKinds>();

  constructor(private readonly cache: CodeAwareCache) {}

  private readCommand(call: ToolCallPart): ReadCommand | undefined {
    return readCommandOf(
      call,
      (command) =>
        this.cache.derived(
          command,
          'read-command',
          () => ({ read: parseReadCommand(command) }),
          () => 96,
        ).read,
    );
  }

  add(content: string, kind: string, messageIndex: number, partIndex: number, find: () => CodeView[]): void {
    const found = this.cache.derived<FoundInContent>(
      content,
      kind,
      () => {
        const views = find();
        return { views, cacheKinds: views.map((_, index) => ({ plan: `plan:${kind}:${index}`, trimmedLines: `trimmed-lines:${kind}:${index}` })) };
      },
      foundBytes,
    );
    const views = placed(found.views, messageIndex, partIndex);
    for (let index = 0; index < views.length; index++) {
      this.views.push(views[index]!);
      this.cacheKinds.set(views[index]!, found.cacheKinds[index]!);
    }
  }

  toolResult(call: ToolCallPart | undefined, output: string, messageIndex: number, partIndex: number): void {
    const read = call ? this.readCommand(call) : undefined;
    // A remembered command's read is the same object each time, and so is its kind string.
    const kind = read === undefined ? 'file-view:null' : this.cache.textOf(read, 'kind', () => `file-view:${JSON.stringify(read)}`);
    this.add(output, kind, messageIndex, partIndex, () => {
      const view = detectOutputView(read, output, messageIndex, partIndex);
      return view ? [view] : [];
    });
  }
}

/**
 * Every file view (tool results), fenced code block (assistant text) and heredoc script (shell
 * calls) a provider may fold, with the keys their fold plans are cached under. What a content
 * holds is looked up in `cache` first: a content seen before is not scanned again.
 * System, user and pinned messages are never looked at: they are never edited (tool results that
 * a format carries inside user messages included).
 */
export function collectCodeViews(messages: readonly Message[], cache: CodeAwareCache): FoundCodeViews {
  const calls = new Map<string, ToolCallPart>();
  const collector = new ViewCollector(cache);
  for (const [messageIndex, message] of messages.entries()) {
    for (const part of message.parts) if (part.type === 'tool-call') calls.set(part.callId, part);
    // Checkpoints too: only the provider that made one ages it.
    if (message.pinned || message.role === 'system' || message.role === 'user' || isCheckpointMessage(message)) continue;
    for (const [partIndex, part] of message.parts.entries()) {
      if (part.type === 'tool-result' && !part.isError) {
        collector.toolResult(calls.get(part.callId), part.output, messageIndex, partIndex);
      } else if (part.type === 'text' && message.role === 'assistant') {
        collector.add(part.text, 'code-blocks', messageIndex, partIndex, () => findCodeBlocks(part.text, messageIndex, partIndex));
      } else if (part.type === 'tool-call' && message.role === 'assistant') {
        const command = commandOf(part);
        if (command !== undefined) collector.add(command, 'scripts', messageIndex, partIndex, () => findHeredocWrites(part, messageIndex, partIndex));
      }
    }
  }
  return { views: collector.views, cacheKinds: collector.cacheKinds };
}

/**
 * Every file view (tool results), fenced code block (assistant text) and heredoc script (shell
 * calls) a provider may fold. See `collectCodeViews`.
 */
export function findCodeViews(messages: readonly Message[], cache: CodeAwareCache = uncachedCodeAware()): CodeView[] {
  return collectCodeViews(messages, cache).views;
}
