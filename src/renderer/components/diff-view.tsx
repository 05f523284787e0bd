/**
 * A coloured diff, side by side or unified (react-diff-view): client-config exports, a replay's
 * answer against the original, two exchanges compared. Unified diff text goes in; the `diff`
 * package makes it from two texts. Unchanged lines left out between and after the hunks are
 * marked ("… 12 unchanged lines"), so a diff never seems to end where its last hunk does.
 */
import { createTwoFilesPatch } from 'diff';
import { useMemo } from 'react';
import { Decoration, Diff, Hunk, parseDiff, type HunkData, type ViewType } from 'react-diff-view';
import 'react-diff-view/style/index.css';

/** Pretty JSON of a value, keys sorted, so two messages diff by meaning rather than key order. */
export function stableJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])]));
    return v;
  };
  return JSON.stringify(sort(value), null, 2) ?? 'undefined';
}

/** A unified diff of two texts (three lines of context unless asked for more). */
export function unifiedDiff(before: string, after: string, name = 'message.json', context = 3): string {
  return createTwoFilesPatch(name, name, before.endsWith('\n') ? before : `${before}\n`, after.endsWith('\n') ? after : `${after}\n`, '', '', { context });
}

/** Lines of a text as a diff counts them. */
export function lineCount(text: string): number {
  return text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
}

/** Unchanged lines of the old side left out before each hunk, and after the last (when the old side's length is known). */
export function omittedLines(hunks: ReadonlyArray<Pick<HunkData, 'oldStart' | 'oldLines'>>, oldTotal: number | undefined): { before: number[]; after: number } {
  const before: number[] = [];
  let next = 1;
  for (const h of hunks) {
    // An empty side starts at 0 in a unified diff.
    const start = h.oldLines === 0 ? h.oldStart + 1 : h.oldStart;
    before.push(Math.max(0, start - next));
    next = start + h.oldLines;
  }
  return { before, after: oldTotal === undefined ? 0 : Math.max(0, oldTotal - (next - 1)) };
}

function Omitted({ count, testId }: { count: number; testId?: string }) {
  return (
    <Decoration className="diff-omitted" contentClassName="diff-omitted-text">
      <span data-testid={testId}>
        … {count} unchanged line{count === 1 ? '' : 's'}
      </span>
    </Decoration>
  );
}

/** The hunks of a unified diff as the git form the viewer's parser reads. */
function gitForm(unified: string, name: string): string {
  const at = unified.indexOf('\n@@');
  const hunks = at === -1 ? (unified.startsWith('@@') ? unified : '') : unified.slice(at + 1);
  return `diff --git a/${name} b/${name}\n--- a/${name}\n+++ b/${name}\n${hunks}`;
}

export function DiffView({ diff, name = 'file', viewType = 'split', labels, testId, oldTotal }: { diff: string; name?: string; viewType?: ViewType; labels?: [string, string]; testId?: string; /** Lines of the old text: marks what follows the last hunk. */ oldTotal?: number }) {
  const files = useMemo(() => {
    try {
      return parseDiff(gitForm(diff, name));
    } catch {
      return [];
    }
  }, [diff, name]);
  const file = files[0];
  if (!file || file.hunks.length === 0) return <p className="muted" data-testid={testId}>No differences.</p>;
  return (
    <div className="diff-view" data-testid={testId} role="region" aria-label={labels ? `Differences: ${labels[0]} against ${labels[1]}` : 'Differences'} tabIndex={0}>
      {labels && viewType === 'split' && (
        <div className="diff-labels" aria-hidden="true">
          <span>{labels[0]}</span>
          <span>{labels[1]}</span>
        </div>
      )}
      <Diff viewType={viewType} diffType={file.type} hunks={file.hunks}>
        {(hunks) => {
          const omitted = omittedLines(hunks, oldTotal);
          const out = hunks.flatMap((hunk, i) => {
            const gap = omitted.before[i] ?? 0;
            return gap > 0 ? [<Omitted key={`gap-${hunk.content}`} count={gap} />, <Hunk key={hunk.content} hunk={hunk} />] : [<Hunk key={hunk.content} hunk={hunk} />];
          });
          if (omitted.after > 0) out.push(<Omitted key="gap-end" count={omitted.after} testId="diff-more" />);
          return out;
        }}
      </Diff>
    </div>
  );
}
