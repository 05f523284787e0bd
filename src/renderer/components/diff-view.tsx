/**
 * A coloured diff, side by side or unified (react-diff-view): client-config exports, a replay's
 * answer against the original, two exchanges compared. Unified diff text goes in; the `diff`
 * package makes it from two texts.
 */
import { createTwoFilesPatch } from 'diff';
import { useMemo } from 'react';
import { Diff, Hunk, parseDiff, type ViewType } from 'react-diff-view';
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

/** A unified diff of two texts (three lines of context). */
export function unifiedDiff(before: string, after: string, name = 'message.json'): string {
  return createTwoFilesPatch(name, name, before.endsWith('\n') ? before : `${before}\n`, after.endsWith('\n') ? after : `${after}\n`, '', '', { context: 3 });
}

/** The hunks of a unified diff as the git form the viewer's parser reads. */
function gitForm(unified: string, name: string): string {
  const at = unified.indexOf('\n@@');
  const hunks = at === -1 ? (unified.startsWith('@@') ? unified : '') : unified.slice(at + 1);
  return `diff --git a/${name} b/${name}\n--- a/${name}\n+++ b/${name}\n${hunks}`;
}

export function DiffView({ diff, name = 'file', viewType = 'split', labels, testId }: { diff: string; name?: string; viewType?: ViewType; labels?: [string, string]; testId?: string }) {
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
        {(hunks) => hunks.map((hunk) => <Hunk key={hunk.content} hunk={hunk} />)}
      </Diff>
    </div>
  );
}
