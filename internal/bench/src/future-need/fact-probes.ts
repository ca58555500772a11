import type { Message } from '@ollm/core';
import type { Cut } from './cut-points.js';
import { editAnchors, repositoryPath } from './edit-anchors.js';
import type { FutureNeed } from './future-needs.js';
import { holdsIdentifier, withoutIdentifiers, wordKind, type Identifier } from './identifiers.js';
import { holdsLine, measureLines, normaliseLine, normalisedText, toolOutputLines, type LineRetention, type OutputLine } from './probe-lines.js';
import { searchableText } from './searchable-parts.js';

/**
 * The probe kinds of future-need. A: the names the later steps use (future-needs.ts). B: edit
 * anchors, the old code the later edits name. C: fact lines, the newest prefix output line
 * holding each A name. D: error and test facts the later messages refer to. B-D are
 * whitespace-normalised lines that must appear verbatim in the compacted text (normalised the same way).
 */
export type ProbeKind = 'A' | 'B' | 'C' | 'D';
export const PROBE_KINDS: readonly ProbeKind[] = ['A', 'B', 'C', 'D'];
export type LineProbeKind = Exclude<ProbeKind, 'A'>;
export const LINE_PROBE_KINDS: readonly LineProbeKind[] = ['B', 'C', 'D'];

/** A fact line is at most this long (normalised): a longer one is a blob, not a line a model would quote. */
export const MAXIMUM_FACT_LINE = 240;
/** ...and has at least this many non-space characters besides its paths and code names. */
export const MINIMUM_BEYOND_IDENTIFIERS = 8;

/** Non-space characters of `line` besides its identifiers (withoutIdentifiers). */
export function beyondIdentifiers(line: string): number {
  return withoutIdentifiers(line).replace(/\s/g, '').length;
}

/** Whether `line` (normalised) is a fact line: short enough, and more than a listing of names. */
export function isFactLine(line: string): boolean {
  return line.length <= MAXIMUM_FACT_LINE && beyondIdentifiers(line) >= MINIMUM_BEYOND_IDENTIFIERS;
}

/**
 * C, fact lines: for each name, the most recent prefix tool-output line that holds it and is a
 * fact line (isFactLine), normalised; once per cut, none a system or user message holds. A name
 * only prose or tool-call arguments held has none.
 */
export function factLines(needs: readonly Identifier[], outputs: readonly OutputLine[], given: string): string[] {
  const probes = new Set<string>();
  const fact = new Map<number, boolean>();
  for (const need of needs) {
    for (let index = outputs.length - 1; index >= 0; index -= 1) {
      const line = outputs[index]!.normalised;
      if (!line.includes(need.text) || !holdsIdentifier(line, need.text)) continue;
      let isFact = fact.get(index);
      if (isFact === undefined) fact.set(index, (isFact = isFactLine(line) && !holdsLine(given, line)));
      if (!isFact) continue;
      probes.add(line);
      break;
    }
  }
  return [...probes];
}

// `ValueError: …`, `django.core.exceptions.ValidationError: …`, pytest's `E   TypeError: …`.
const EXCEPTION_LINE = /^(?:E )?(?:[A-Za-z_]\w*\.)*([A-Z]\w*(?:Error|Exception)): (.+)$/;
// pytest's `3 passed`, `1 failed`; its `FAILED tests/…` and unittest's `FAILED (failures=1)`; `Ran 4 tests`; `OK`, `OK (skipped=2)`.
const TEST_SUMMARY = [/\b\d+ (?:passed|failed)\b/, /^FAILED\b/, /^Ran \d+ tests?\b/, /^OK(?: \([^)]*\))?$/];
const FRAME = /^File "([^"]+)", line \d+(?:, in (\S+))?/;
const TRACEBACK = 'Traceback (most recent call last):';
// A later message that speaks of tests or their outcome at all.
const TESTS_MENTIONED = /\b(?:tests?|testing|tested|pytest|runtests|unittest|passed|failed|passes|fails|passing|failing)\b/i;
// An exception's message must be this long to count as referred to by itself (`'x'` is anywhere).
const MINIMUM_MESSAGE = 8;

export function isExceptionLine(line: string): boolean {
  return EXCEPTION_LINE.test(line);
}

export function isTestSummary(line: string): boolean {
  return TEST_SUMMARY.some((pattern) => pattern.test(line));
}

const indentOf = (raw: string) => /^\s*/.exec(raw)![0].length;

/** The `File "…", line N` lines of the last traceback the prefix's tool output printed. */
export function lastTracebackFrames(outputs: readonly OutputLine[]): OutputLine[] {
  let start = -1;
  for (let index = outputs.length - 1; index >= 0 && start === -1; index -= 1) if (outputs[index]!.normalised === TRACEBACK) start = index;
  if (start === -1) return [];
  const indent = indentOf(outputs[start]!.raw);
  const frames: OutputLine[] = [];
  for (let index = start + 1; index < outputs.length; index += 1) {
    const line = outputs[index]!;
    // The traceback ends with the message (at its own indentation: the exception line) or the tool output.
    if (line.message !== outputs[start]!.message || indentOf(line.raw) <= indent) break;
    if (FRAME.test(line.normalised)) frames.push(line);
  }
  return frames;
}

/**
 * D, error and test facts: prefix tool-output lines (normalised) the later messages (any role)
 * refer to. The rule, kept simple:
 * - an exception line (`XxxError: …`, `XxxException: …`) when a later message holds its type name
 *   (`ValidationError`) or its message text (at least MINIMUM_MESSAGE characters);
 * - a test summary (`N passed`, `N failed`, `FAILED …`, `Ran N tests`, `OK`, `OK (skipped=N)`)
 *   when a later message speaks of tests or their outcome at all (TESTS_MENTIONED);
 * - a frame of the prefix's last traceback (`File "…", line N, in f`) when a later message holds
 *   its file's path (without `/testbed/`) or its function's name (a code name: `__init__`, `get_prep_value`).
 * Once per cut; none a system or user message holds.
 */
export function errorFacts(outputs: readonly OutputLine[], later: readonly Message[], given: string): string[] {
  const laterText = searchableText(later);
  const laterNormalised = normaliseLine(laterText);
  const testsMentioned = TESTS_MENTIONED.test(laterText);
  const probes = new Set<string>();
  for (const { normalised: line } of outputs) {
    const exception = EXCEPTION_LINE.exec(line);
    if (exception) {
      const message = normaliseLine(exception[2]!);
      if (holdsIdentifier(laterText, exception[1]!) || (message.length >= MINIMUM_MESSAGE && holdsLine(laterNormalised, message))) probes.add(line);
    } else if (testsMentioned && isTestSummary(line)) probes.add(line);
  }
  for (const { normalised: line } of lastTracebackFrames(outputs)) {
    const [, file, name] = FRAME.exec(line)!;
    const path = repositoryPath(file!);
    const byPath = !path.startsWith('<') && holdsIdentifier(laterText, path);
    const byName = name !== undefined && wordKind(name) !== undefined && holdsIdentifier(laterText, name);
    if (byPath || byName) probes.add(line);
  }
  return [...probes].filter((probe) => !holdsLine(given, probe));
}

/** The B, C and D probes of one cut. */
export type LineProbes = Readonly<Record<LineProbeKind, readonly string[]>>;

/**
 * B, C and D at a cut of `conversation`, for its A names `needs`; `submission` is the
 * trajectory's final patch (B reads the lines it removed or kept of the files edited after the cut).
 */
export function lineProbes(conversation: readonly Message[], cut: Cut, needs: readonly FutureNeed[], submission?: string): LineProbes {
  const given = normalisedText(conversation.filter((message) => message.role === 'system' || message.role === 'user'));
  const outputs = toolOutputLines(cut.prefix);
  return {
    B: editAnchors(cut, submission, given, outputs),
    C: factLines(needs, outputs, given),
    D: errorFacts(outputs, cut.later, given),
  };
}

/** How many of each kind a compacted prefix (its normalisedText) still holds. */
export function measureLineProbes(probes: LineProbes, compacted: string): Record<LineProbeKind, LineRetention> {
  return { B: measureLines(probes.B, compacted), C: measureLines(probes.C, compacted), D: measureLines(probes.D, compacted) };
}
