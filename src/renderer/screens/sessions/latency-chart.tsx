/**
 * Latency of the session's calls over time (uPlot, loaded with the first chart): answered calls
 * and failed ones in two colours (failures drawn above, ringed); clicking a point opens that call.
 * It follows the timeline's filters and search: it plots the calls they let through, and says
 * how many of the session's calls that is.
 */
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { formatMs } from '../../components/format.js';
import { isErrorRow, type TimelineRow } from '../../stores/timeline-model.js';
import { isFiltering, passes, type TimelineFilter } from '../../stores/timeline-view.js';

const TimeChart = lazy(() => import('../../components/chart.js').then((m) => ({ default: m.TimeChart })));

/** Points beyond this are thinned (every n-th call), so a huge session still draws at once. */
const MAX_POINTS = 5000;
/** A chart needs no more than this many redraws while traffic flows (the timeline takes every batch). */
const REDRAW_MS = 1000;

/** `version`, followed at most once per `ms` (the latest value is always reached). */
function useThrottled(version: number, ms: number): number {
  const [shown, setShown] = useState(version);
  const last = useRef(0);
  useEffect(() => {
    const wait = Math.max(0, last.current + ms - Date.now());
    const t = setTimeout(() => {
      last.current = Date.now();
      setShown(version);
    }, wait);
    return () => clearTimeout(t);
  }, [version, ms]);
  return shown;
}

export function LatencyChart({ rows, version, filter, onPick }: { rows: readonly TimelineRow[]; version: number; filter: TimelineFilter; onPick(index: number): void }) {
  const drawn = useThrottled(version, REDRAW_MS);
  const data = useMemo(() => {
    const filtering = isFiltering(filter);
    const calls: number[] = [];
    let all = 0;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      if (row.kind !== 'exchange' || row.latencyMs === undefined) continue;
      all++;
      if (!filtering || passes(row, i, filter)) calls.push(i);
    }
    const step = Math.max(1, Math.ceil(calls.length / MAX_POINTS));
    const picked = calls.filter((_, j) => j % step === 0);
    const x: number[] = [];
    const ok: Array<number | null> = [];
    const failed: Array<number | null> = [];
    let last = -Infinity;
    for (const i of picked) {
      const r = rows[i]!;
      // uPlot wants x ascending: calls that start in the same ms get nudged apart.
      const t = Math.max(r.time, last + 0.001);
      last = t;
      x.push(t);
      const bad = isErrorRow(r);
      ok.push(bad ? null : r.latencyMs!);
      failed.push(bad ? r.latencyMs! : null);
    }
    const sorted = picked.map((i) => rows[i]!.latencyMs!).sort((a, b) => a - b);
    const p95 = sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] : undefined;
    return { x, ok, failed, indexes: picked, count: calls.length, all, filtering, errors: failed.filter((v) => v !== null).length, p95, max: sorted.at(-1) };
    // `drawn` follows `version`, which changes whenever rows were appended in place.
  }, [rows, drawn, filter]);
  const shown = data.filtering ? `${data.count} of ${data.all} calls (filtered)` : `${data.count} call${data.count === 1 ? '' : 's'}`;
  if (data.count === 0) {
    return (
      <p className="muted small chart-empty" data-testid="latency-chart-empty">
        {data.filtering && data.all > 0 ? 'No answered call passes these filters.' : 'The latency chart fills in as calls are answered.'}
      </p>
    );
  }
  const summary = `${shown}; ${data.errors} failed; p95 ${formatMs(data.p95)}, slowest ${formatMs(data.max)}.`;
  return (
    <Suspense fallback={<p className="muted small">Loading the chart…</p>}>
      <p className="muted small chart-caption" data-testid="latency-chart-caption">
        Latency of {summary}
      </p>
      <TimeChart
        x={data.x}
        series={[
          { label: 'answered', values: data.ok, color: '--accent', points: true },
          { label: 'failed', values: data.failed, color: '--danger', points: true, emphasis: true },
        ]}
        height={typeof window !== 'undefined' && window.innerHeight < 820 ? 110 : 150}
        onPick={(i) => {
          const index = data.indexes[i];
          if (index !== undefined) onPick(index);
        }}
        summary={`Latency over time of ${summary} Click a point to open that call.`}
        testId="latency-chart"
      />
    </Suspense>
  );
}
