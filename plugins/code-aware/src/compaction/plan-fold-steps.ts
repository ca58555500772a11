import { isOutlineFoldable } from '../grammar/language-id.js';
import { fileNameOf, pathsMatch } from '../references/path-match.js';
import type { CodeView } from '../views/code-view.js';
import type { ViewFoldLevel } from './fold-view.js';
import { byFileName, viewHistories } from './view-histories.js';
import { partKey } from './find-code-views.js';

/** One edit of one message part: its views folded to `level`. */
export interface FoldStep {
  readonly key: string;
  readonly messageIndex: number;
  readonly partIndex: number;
  readonly views: readonly CodeView[];
  readonly level: ViewFoldLevel;
  readonly latestAt?: number;
}

/**
 * The folding order, cheapest loss first; the provider applies steps until the context is under
 * the limit. "Old" means outside the last `recentMessages` messages.
 * 1. an earlier view whose lines a later view of the same file shows again -> a reference to it
 *    (any age: the later view holds the same code);
 * 2. old scripts the assistant wrote with `cat > FILE << EOF` (tests, reproductions; not a file
 *    the conversation reads, which would be an edit): comments and bodies folded;
 * 3. old views that are not the file's latest: comments removed, then (4) bodies folded;
 * 5. old fenced code blocks in assistant text: comments and bodies folded;
 * 6. old views that are the file's latest: comments removed, then (7) bodies folded.
 * A view that a reference from step 1 points to is never folded: it stays in full, as promised.
 * Within each phase the oldest message goes first.
 */
export function planFoldSteps(views: readonly CodeView[], messageCount: number, recentMessages: number): FoldStep[] {
  const fileViews = views.filter((view) => view.kind === 'file-view' && view.path !== undefined);
  const oldBefore = messageCount - recentMessages;
  const superseded: FoldStep[] = [];
  const olderViews: CodeView[] = [];
  const latestViews: CodeView[] = [];
  const referenced = new Set<number>();
  const fileNames = byFileName(fileViews);
  const histories = viewHistories(fileNames);
  for (const view of fileViews) {
    const history = histories.get(view)!;
    if (history.supersededAt !== undefined) {
      superseded.push(stepFor([view], 'reference', history.supersededAt));
      referenced.add(history.supersededAt);
    } else if (view.messageIndex < oldBefore && isOutlineFoldable(view.language, view.path)) {
      (history.latest ? latestViews : olderViews).push(view);
    }
  }
  // A view a reference points to stays in full, as the reference promises.
  const foldableOlder = olderViews.filter((view) => !referenced.has(view.messageIndex));
  const foldableLatest = latestViews.filter((view) => !referenced.has(view.messageIndex));
  const blocksByPart = groupOldByPart(views, 'code-block', oldBefore);
  // A heredoc that rewrites a file the conversation reads is an edit, and edits stay.
  const scriptsByPart = groupOldByPart(
    views.filter((view) => view.kind !== 'script' || !(fileNames.get(fileNameOf(view.path!)) ?? []).some((file) => pathsMatch(file.path!, view.path!))),
    'script',
    oldBefore,
  );
  return [
    ...superseded,
    ...[...scriptsByPart.values()].map((scripts) => stepFor(scripts, 'signatures')),
    ...foldableOlder.map((view) => stepFor([view], 'comments')),
    ...foldableOlder.map((view) => stepFor([view], 'signatures')),
    ...[...blocksByPart.values()].map((blocks) => stepFor(blocks, 'signatures')),
    ...foldableLatest.map((view) => stepFor([view], 'comments')),
    ...foldableLatest.map((view) => stepFor([view], 'signatures')),
  ];
}

function groupOldByPart(views: readonly CodeView[], kind: CodeView['kind'], oldBefore: number): Map<string, CodeView[]> {
  const byPart = new Map<string, CodeView[]>();
  for (const view of views) {
    if (view.kind !== kind || view.messageIndex >= oldBefore || !isOutlineFoldable(view.language, view.path)) continue;
    const key = partKey(view.messageIndex, view.partIndex);
    byPart.set(key, [...(byPart.get(key) ?? []), view]);
  }
  return byPart;
}

function stepFor(views: readonly CodeView[], level: ViewFoldLevel, latestAt?: number): FoldStep {
  const first = views[0]!;
  return {
    key: partKey(first.messageIndex, first.partIndex),
    messageIndex: first.messageIndex,
    partIndex: first.partIndex,
    views,
    level,
    ...(latestAt === undefined ? {} : { latestAt }),
  };
}
