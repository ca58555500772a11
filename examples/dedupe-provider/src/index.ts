import { saveRemovedContent, sha256Hex, withParts } from '@ollm/core';
import type { CompactionWarning, ContextProviderV2, Message, RemovedContent } from '@ollm/core';

export interface DedupeOptions {
  /** A run of repeated lines is replaced only when it has at least this many non-blank lines. Default 5. */
  readonly minLines?: number;
}

export const DEDUPE_PROVIDER_NAME = 'dedupe';

/** One tool result of the conversation: where it is, and its lines. */
interface ToolOutput {
  readonly index: number;
  readonly part: number;
  readonly callId: string;
  readonly tool: string;
  readonly output: string;
  readonly lines: readonly string[];
  /** False for results the provider must not edit (in user or pinned messages); they still count as later copies. */
  readonly editable: boolean;
}

/** A number from the host's options, else the factory's default. */
function option(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : fallback;
}

/** Lines compare without the whitespace at their ends; whole outputs with all whitespace runs collapsed. */
const lineKey = (line: string): string => line.trim();
const outputKey = (output: string): string => output.replace(/\s+/g, ' ').trim();

/**
 * Coding agents read the same file, rerun the same command and list the same folder again and
 * again. This provider finds, in each older tool output, the runs of lines that a later tool
 * output repeats, and replaces each run by one line naming the later call, e.g.
 * `[dedupe: 42 lines also in the output of bash call call_7]`. The newest copy is always kept
 * verbatim (it has no later copy), so nothing the conversation knows is lost. Oldest outputs
 * first, until the conversation is under the limit (no limit: every repeat). Only the text of
 * tool results in tool messages changes: tool calls, ids, roles, order and system, user and
 * pinned messages stay as they are. Each edited output is saved under `<logdir>/removed/`.
 */
export function createDedupeProvider(defaults: DedupeOptions = {}): ContextProviderV2 {
  return {
    specificationVersion: 'v2',
    name: DEDUPE_PROVIDER_NAME,
    description: 'Replaces lines of old tool outputs that a later tool output repeats by a reference to that call',
    usesModel: false,
    async compress(call) {
      call.abortSignal?.throwIfAborted();
      const { limit, settings, tokens } = call;
      const minLines = option(call.providerOptions['minLines'], defaults.minLines ?? 5);

      // Every tool result, oldest first. Results in user messages (Anthropic) or pinned messages
      // are never edited, but a repeat of them is still a repeat.
      const toolNames = new Map<string, string>();
      const outputs: ToolOutput[] = [];
      call.messages.forEach((message, index) => {
        message.parts.forEach((part, partIndex) => {
          if (part.type === 'tool-call') toolNames.set(part.callId, part.name);
          if (part.type !== 'tool-result') return;
          const tool = part.name ?? toolNames.get(part.callId) ?? 'tool';
          const editable = message.role === 'tool' && !message.pinned;
          outputs.push({ index, part: partIndex, callId: part.callId, tool, output: part.output, lines: part.output.split('\n'), editable });
        });
      });

      // For every line (and every whole output), the outputs it appears in, in ascending order.
      const linesIn = new Map<string, number[]>();
      const outputsLike = new Map<string, number[]>();
      const record = (map: Map<string, number[]>, key: string, ordinal: number) => {
        const list = map.get(key) ?? [];
        if (list[list.length - 1] !== ordinal) list.push(ordinal);
        map.set(key, list);
      };
      outputs.forEach((output, ordinal) => {
        record(outputsLike, outputKey(output.output), ordinal);
        for (const line of output.lines) if (lineKey(line) !== '') record(linesIn, lineKey(line), ordinal);
      });
      const later = (map: Map<string, number[]>, key: string, ordinal: number) => (map.get(key) ?? []).filter((other) => other > ordinal);
      // A reference names the call, not a message number: a later stage may drop messages, never ids.
      const reference = (ordinal: number) => `${outputs[ordinal]!.tool} call ${outputs[ordinal]!.callId}`;

      /** The output with its repeated runs replaced; the output itself when nothing repeats. */
      const deduplicated = (output: ToolOutput, ordinal: number): string => {
        const same = later(outputsLike, outputKey(output.output), ordinal);
        if (same.length > 0 && outputKey(output.output) !== '') return `[dedupe: same output as ${reference(same[same.length - 1]!)}]`;
        const kept: string[] = [];
        let start = 0;
        while (start < output.lines.length) {
          // The longest run from `start` whose lines all appear in one same later output (blank
          // lines in between come along).
          let candidates = new Set(later(linesIn, lineKey(output.lines[start]!), ordinal));
          let end = start; // the run is lines start..end
          let substantive = candidates.size > 0 ? 1 : 0;
          for (let next = start + 1; candidates.size > 0 && next < output.lines.length; next += 1) {
            const key = lineKey(output.lines[next]!);
            if (key === '') continue;
            const inBoth = new Set(later(linesIn, key, ordinal).filter((other) => candidates.has(other)));
            if (inBoth.size === 0) break;
            candidates = inBoth;
            end = next;
            substantive += 1;
          }
          const run = output.lines.slice(start, end + 1);
          // Named: the newest output that has every line of the run, the copy that stays longest.
          const placeholder = substantive >= minLines ? `[dedupe: ${run.length} lines also in the output of ${reference(Math.max(...candidates))}]` : '';
          if (placeholder !== '' && tokens.countText(run.join('\n')) > tokens.countText(placeholder)) {
            kept.push(placeholder);
            start = end + 1;
          } else {
            kept.push(output.lines[start]!);
            start += 1;
          }
        }
        return kept.join('\n');
      };

      const messages: Message[] = [...call.messages]; // never edit the input: replace messages
      const removed: RemovedContent[] = [];
      let total = tokens.countMessages(messages);
      const startedUnder = limit !== undefined && total <= limit;
      for (const [ordinal, output] of outputs.entries()) {
        if (limit !== undefined && total <= limit) break;
        if (!output.editable) continue;
        const text = deduplicated(output, ordinal);
        if (text === output.output) continue;

        const message = messages[output.index]!;
        const edited = withParts(
          message,
          message.parts.map((part, partIndex) => (partIndex === output.part && part.type === 'tool-result' ? { ...part, output: text } : part)),
        );
        const saving = tokens.countMessage(message) - tokens.countMessage(edited);
        if (saving <= 0) continue;

        const sha256 = sha256Hex(output.output);
        const saved = settings.logdir !== undefined ? saveRemovedContent(settings.logdir, output.output, sha256) : undefined;
        messages[output.index] = edited;
        total -= saving;
        removed.push({
          messageId: message.id,
          kind: 'tool-result',
          sha256,
          originalTokens: tokens.countText(output.output),
          ...(saved ? { path: saved.path } : {}),
        });
      }

      // Typed warnings; the host turns them into `limitations` and adds `limit-not-reached` itself.
      const warnings: CompactionWarning[] = [];
      if (removed.length === 0) {
        const reason = startedUnder ? 'already under the limit' : 'no tool output repeats a later one';
        warnings.push({ type: 'nothing-to-do', reason: `dedupe: ${reason}` });
      } else {
        warnings.push({ type: 'note', message: `dedupe: ${removed.length} tool output(s) shortened to references to a later call` });
        if (settings.logdir === undefined) {
          warnings.push({ type: 'not-recoverable', reason: 'dedupe: no logdir, so the shortened outputs were not saved (a later output still has the lines)' });
        }
      }
      return { messages, removed, warnings };
    },
  };
}

/** The provider with its defaults: what discovery registers. */
const dedupe = createDedupeProvider();
export default dedupe;
