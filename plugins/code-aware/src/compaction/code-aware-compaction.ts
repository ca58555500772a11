import {
  buildCompactionResult,
  saveRemovedContent,
  sha256Hex,
  toolCallArguments,
  withParts,
  type CompactionResult,
  type CompressionConfig,
  type Message,
  type MessagePart,
  type ProviderContext,
  type RemovedContent,
} from '@ollm/core';
import { stringBytes, type CodeAwareCache } from '../cache/code-aware-cache.js';
import type { FoldPlan } from '../folding/fold-plan.js';
import { grammarMayLoad } from '../grammar/grammar-loader.js';
import { linesBytes, trimmedLinesOf, type LineReferences } from '../references/line-references.js';
import { lineReferencesFor } from '../references/references-for.js';
import type { CodeView } from '../views/code-view.js';
import { partKey, type FoundCodeViews } from './find-code-views.js';
import { foldedCandidate, type FoldInputs } from './folded-candidates.js';
import { foldedRegion, planView } from './fold-view.js';
import { partContent, REMOVED_KIND, withContent } from './part-content.js';
import type { FoldStep } from './plan-fold-steps.js';

const NO_ROWS: ReadonlySet<number> = new Set();

/** Hex digits of the sha256 a placeholder shows; `ollm recover` accepts any unique prefix of 8 or more. */
const SHOWN_SHA_DIGITS = 12;

/**
 * One compaction in progress: applies fold steps to a copy of the input, keeps the running token
 * total, saves originals and builds the result.
 */
export class CodeAwareCompaction {
  private readonly output: Message[];
  private readonly plans = new Map<CodeView, FoldPlan>();
  private readonly removed = new Map<string, RemovedContent>();
  private readonly references: LineReferences;
  private readonly lineBased = new Set<CodeView>();
  /** sha256 of each part's original content by part key: a part is folded by several steps (comments, then signatures). */
  private readonly hashes = new Map<string, string>();
  total: number;

  constructor(
    private readonly input: readonly Message[],
    private readonly found: FoundCodeViews,
    private readonly config: CompressionConfig,
    private readonly context: ProviderContext,
    private readonly minimumSaving: number,
    private readonly cache: CodeAwareCache,
  ) {
    this.output = [...input];
    this.total = context.tokens.countMessages(input);
    const fileViews = new Map(found.views.filter((view) => view.kind === 'file-view').map((view) => [partKey(view.messageIndex, view.partIndex), view]));
    this.references = lineReferencesFor(input, fileViews, cache);
  }

  underLimit(): boolean {
    return this.config.limit !== undefined && this.total <= this.config.limit;
  }

  /**
   * The view's fold plan: remembered under the content the view was found in (`originalText`, the
   * part's text), else planned now — a tree-sitter parse, only for views a step folds.
   */
  private async planOf(view: CodeView, originalText: string): Promise<FoldPlan> {
    let plan = this.plans.get(view);
    if (!plan) {
      const kind = this.found.cacheKinds.get(view)?.plan;
      plan = kind === undefined ? undefined : this.cache.lookup<FoldPlan>(originalText, kind);
      if (!plan) {
        plan = await planView(view);
        if (kind !== undefined) this.cache.store(originalText, kind, plan, 64 + 8 * plan.states.length + 32 * plan.trailingComments.size);
      }
      this.plans.set(view, plan);
      if (plan.method === 'lines') this.lineBased.add(view);
    }
    return plan;
  }

  /**
   * A `reference` step replaces the view by a pointer to a later view and never reads its plan, so
   * the view is not parsed and no grammar is loaded; only what a plan would record is: whether no
   * grammar parses its language (the line-pattern note counts such views).
   */
  private referencePlan(view: CodeView): FoldPlan {
    const byTree = view.language !== undefined && grammarMayLoad(view.language);
    if (!byTree) this.lineBased.add(view);
    return { states: [], trailingComments: new Map(), method: byTree ? 'tree-sitter' : 'lines' };
  }

  /** Rows of `view` that other messages cite or edit; its trimmed lines are remembered with its plan. */
  private keptRows(view: CodeView, originalText: string): ReadonlySet<number> {
    const kind = this.found.cacheKinds.get(view)?.trimmedLines;
    const trimmed = kind === undefined ? trimmedLinesOf(view) : this.cache.derived(originalText, kind, () => trimmedLinesOf(view), linesBytes);
    return this.references.keptRows(view, trimmed);
  }

  /** Applies one step when it saves enough tokens; the part is always rebuilt from the original. */
  async apply(step: FoldStep): Promise<void> {
    this.context.abortSignal?.throwIfAborted();
    const original = this.input[step.messageIndex]!;
    const originalPart = original.parts[step.partIndex]!;
    const originalText = partContent(originalPart);
    let sha256 = this.hashes.get(step.key);
    if (sha256 === undefined) {
      sha256 = this.cache.derived(originalText, 'sha256', () => sha256Hex(originalText), stringBytes);
      this.hashes.set(step.key, sha256);
    }
    const recovery = this.config.logdir
      ? `ollm recover ${sha256.slice(0, SHOWN_SHA_DIGITS)}`
      : `not recoverable (no logdir), sha256 ${sha256.slice(0, SHOWN_SHA_DIGITS)}`;
    const views: FoldInputs['views'][number][] = [];
    for (const view of step.views) {
      // A reference reads no plan and shows no rows: nothing to parse or look up.
      views.push(
        step.level === 'reference'
          ? { view, plan: this.referencePlan(view), keptRows: NO_ROWS }
          : { view, plan: await this.planOf(view, originalText), keptRows: this.keptRows(view, originalText) },
      );
    }
    const current = this.output[step.messageIndex]!;
    const inputs: FoldInputs = { originalPart, partIndex: step.partIndex, level: step.level, recovery, latestAt: step.latestAt, views };
    const candidate = foldedCandidate(current, inputs, () => {
      let text = originalText;
      // Later blocks first, so earlier blocks' offsets stay valid.
      for (const { view, plan, keptRows } of [...views].reverse()) {
        const region = foldedRegion({
          view,
          plan,
          level: step.level,
          keptRows,
          recovery,
          ...(step.latestAt === undefined ? {} : { latestAt: step.latestAt }),
        });
        text = text.slice(0, view.before.length) + region + text.slice(text.length - view.after.length);
      }
      const parts = [...current.parts];
      parts[step.partIndex] = withContent(originalPart, text);
      return withParts(current, parts);
    });
    const saving = this.context.tokens.countMessage(current) - this.context.tokens.countMessage(candidate);
    if (saving < this.minimumSaving) return;
    this.output[step.messageIndex] = candidate;
    this.total -= saving;
    this.record(step, original, originalText, sha256);
  }

  private record(step: FoldStep, original: Message, originalText: string, sha256: string): void {
    if (this.removed.has(step.key)) return;
    const saved = this.config.logdir ? saveRemovedContent(this.config.logdir, originalText, sha256) : undefined;
    const part = original.parts[step.partIndex]!;
    this.removed.set(step.key, {
      messageId: original.id,
      kind: REMOVED_KIND[part.type],
      sha256,
      originalTokens: this.originalTokens(part),
      ...(saved ? { path: saved.path } : {}),
    });
  }

  /**
   * What the folded content took in the context, from counts the host made already: an output or
   * a text is its part's whole text; a shell call's command is counted as the model read it, in
   * the call's arguments (as trim counts the calls it folds), not tokenised again on its own.
   */
  private originalTokens(part: MessagePart): number {
    return part.type === 'tool-call' ? this.context.tokens.countText(toolCallArguments(part)) : this.context.tokens.countPartText(part);
  }

  result(startedAt: number): CompactionResult {
    const limitations: string[] = [];
    if (this.removed.size > 0 && !this.config.logdir) {
      limitations.push("removed content is not recoverable: no logdir was given, so only each piece's sha256 is recorded");
    }
    if (this.config.limit !== undefined && this.total > this.config.limit) {
      limitations.push(
        `code-aware folds only code (file views, code blocks, heredoc scripts) outside the recent messages; the context is still ${this.total} tokens, above the limit ${this.config.limit}: run mask or trim too (e.g. a pipeline mask -> code-aware)`,
      );
    }
    const lineBasedFolded = [...this.lineBased].filter((view) => this.removed.has(partKey(view.messageIndex, view.partIndex))).length;
    if (lineBasedFolded > 0) limitations.push(`${lineBasedFolded} views in languages without a grammar were folded by line patterns, less precisely`);
    return buildCompactionResult({
      input: this.input,
      output: this.output,
      tokens: this.context.tokens,
      startedAt,
      removed: [...this.removed.values()],
      limitations,
    });
  }
}
