import type { TokenCounting, ToolCallPart } from '@ollm/core';
import { buildJsonSkeleton, skeletonTokenBudget } from './json-skeleton.js';
import type { RecordedRemoval } from './trim-workspace.js';

/** Every trim placeholder starts with this, so a later pass (or a later compaction) never trims one again. */
export const PLACEHOLDER_PREFIX = '[ollm trim]';

export interface ToolResultPlaceholderInput {
  readonly output: string;
  /** The output's size in tokens, already known to the caller. */
  readonly outputTokens: number;
  readonly toolName: string | undefined;
  readonly call: ToolCallPart | undefined;
  readonly stored: RecordedRemoval;
  readonly previewLines: number;
  readonly previewLineCharacters: number;
  readonly tokens: TokenCounting;
}

/** Argument names that hold what a call ran, and the file it worked on (e.g. `str_replace_editor`'s `view` + `path`). */
const COMMAND_KEYS = ['command', 'cmd', 'query', 'code', 'url', 'pattern'];
const PATH_KEYS = ['path', 'file_path', 'filename', 'file'];

/** The command a call ran, for the placeholder: the usual argument names, else the raw input. */
export function describeToolCall(call: ToolCallPart | undefined): string | undefined {
  if (!call) return undefined;
  const input = call.input;
  if (input && typeof input === 'object' && !Array.isArray(input)) {
    const record = input as Record<string, unknown>;
    const pick = (keys: string[]): string | undefined =>
      keys.map((key) => record[key]).find((value): value is string => typeof value === 'string' && value.length > 0);
    const command = pick(COMMAND_KEYS);
    const path = pick(PATH_KEYS);
    if (command !== undefined && path !== undefined && !command.includes(path)) return `${command} ${path}`;
    if (command !== undefined || path !== undefined) return command ?? path;
  }
  if (typeof input === 'string' && input.length > 0) return input;
  return call.rawInput ?? (input === undefined ? undefined : JSON.stringify(input));
}

/** `line` cut at `limit` characters, saying how many were cut. */
export function shortenLine(line: string, limit: number): string {
  return line.length <= limit ? line : `${line.slice(0, limit)}… (${line.length - limit} more characters)`;
}

/** First line of a command, capped: heredocs that write whole files stay in the call itself. */
function commandLine(command: string, limit: number): string {
  const lines = command.split('\n');
  const first = shortenLine(lines[0]!, limit);
  return lines.length > 1 ? `${first} … (${lines.length - 1} more lines)` : first;
}

/** Hex digits of the sha256 in the `ollm recover` hint: a unique prefix, as git takes (the path has it in full). */
export const SHA_PREFIX_LENGTH = 12;

/**
 * Lines a preview skips: blank ones and bare markup such as SWE-agent's `<output>` wrapper. Read
 * on the trimmed line: a regex with whitespace on both sides of an optional tag backtracks
 * quadratically on a long run of spaces (100,000 cost 15 s).
 */
const BARE_TAG = /^<\/?[\w-]+>$/;
export function isEmptyLine(line: string): boolean {
  const trimmed = line.trim();
  return trimmed === '' || BARE_TAG.test(trimmed);
}
/** SWE-agent starts outputs with the exit code; it goes in the header instead of a preview line. */
const RETURN_CODE_LINE = /^\s*<returncode>(-?\d+)<\/returncode>\s*$/;

/** What a placeholder shows of an output's lines, read once for both of its renderings. */
interface OutputPreview {
  readonly returnCode: string | undefined;
  readonly lineCount: number;
  readonly head: readonly string[];
  readonly tail: readonly string[];
  readonly omitted: number;
}

function previewOf(output: string, previewLines: number): OutputPreview {
  const lines = output.split('\n');
  const returnCode = RETURN_CODE_LINE.exec(lines[0] ?? '')?.[1];
  const meaningful = lines.filter((line, index) => !isEmptyLine(line) && !(index === 0 && returnCode !== undefined));
  const head = meaningful.slice(0, previewLines);
  const tail = meaningful.slice(Math.max(previewLines, meaningful.length - previewLines));
  // A final newline ends the last line; it does not start another.
  const lineCount = output.endsWith('\n') ? lines.length - 1 : lines.length;
  return { returnCode, lineCount, head, tail, omitted: meaningful.length - head.length - tail.length };
}

function render(
  input: ToolResultPlaceholderInput,
  preview: OutputPreview,
  removedTokens: number,
  originalTokens: number,
  skeleton: string | undefined,
): string {
  const { stored, previewLineCharacters } = input;
  const { returnCode, lineCount, head, tail, omitted } = preview;
  const command = describeToolCall(input.call);
  const name = input.toolName ?? input.call?.name ?? 'tool';
  const shortSha = stored.sha256.slice(0, SHA_PREFIX_LENGTH);
  const text = [
    `${PLACEHOLDER_PREFIX} \`${name}\` output truncated: ${removedTokens} of ${originalTokens} tokens removed (${lineCount} lines${returnCode !== undefined ? `, exit code ${returnCode}` : ''}).` +
      (command !== undefined ? ` Command: ${commandLine(command, previewLineCharacters)}` : ''),
    // A JSON output shows its identifiers and amounts instead of an arbitrary cut of its lines.
    ...(skeleton !== undefined
      ? ['JSON skeleton (ids, amounts, sizes; … = left out):', `  ${skeleton}`]
      : [
          ...(head.length > 0 ? ['First lines:', ...head.map((line) => `  ${shortenLine(line, previewLineCharacters)}`)] : []),
          ...(omitted > 0 ? [`  … ${omitted} more lines …`] : []),
          ...(tail.length > 0 ? ['Last lines:', ...tail.map((line) => `  ${shortenLine(line, previewLineCharacters)}`)] : []),
        ]),
    stored.path !== undefined
      ? `Full output saved; read it back with: ollm recover ${shortSha}`
      : `Full output NOT saved (no logdir configured), so it cannot be recovered (sha256 ${shortSha}).`,
  ];
  return text.join('\n');
}

/**
 * The text that replaces a truncated tool output: tool name, command, tokens removed, a head and
 * tail preview (for JSON, a skeleton of its ids and amounts) and where the full output is, so a
 * model reading it knows how to get it back.
 * Returns the text and its size in tokens (an upper bound by a token or two).
 */
export function buildToolResultPlaceholder(input: ToolResultPlaceholderInput): { text: string; tokens: number } {
  const originalTokens = input.outputTokens;
  // The removed count depends on the placeholder's own size: measure a draft that shows the
  // original count (as many digits or more), then show what that draft leaves.
  const skeleton = buildJsonSkeleton(input.output, { tokenBudget: skeletonTokenBudget(originalTokens, input.previewLines), tokens: input.tokens });
  const preview = previewOf(input.output, input.previewLines);
  const draftTokens = input.tokens.countText(render(input, preview, originalTokens, originalTokens, skeleton));
  return { text: render(input, preview, Math.max(0, originalTokens - draftTokens), originalTokens, skeleton), tokens: draftTokens };
}
