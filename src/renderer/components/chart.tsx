/**
 * A time chart (uPlot: small, canvas, fast with thousands of points, styles from its own CSS
 * file): latency per call over a session, p50/p95 over time per server. Follows the container's
 * width and the theme; a click on a point reports its index. The canvas is described in words
 * for assistive technology (`summary`).
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { timeLabels, timeRange } from './chart-axes.js';
import { usePrefersDark } from './use-prefers-dark.js';

export interface ChartSeries {
  label: string;
  /** One value per x; null where the series has none. */
  values: Array<number | null>;
  /** A CSS custom property of the theme, e.g. `--accent`. */
  color: string;
  /** Points only (a scatter), or a line. */
  points?: boolean;
  /** Drawn larger, ringed and above the others (failures among many successes). */
  emphasis?: boolean;
}

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

function msLabel(v: number): string {
  return v >= 1000 ? `${(v / 1000).toFixed(v >= 10_000 ? 0 : 1)} s` : `${Math.round(v)} ms`;
}

export function TimeChart(props: {
  /** Epoch ms. */
  x: number[];
  series: ChartSeries[];
  height?: number;
  summary: string;
  onPick?: ((index: number) => void) | undefined;
  testId?: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | undefined>(undefined);
  const pick = useRef(props.onPick);
  pick.current = props.onPick;
  const dark = usePrefersDark();
  const height = props.height ?? 160;
  const shape = props.series.map((s) => `${s.label}:${s.points ? 'p' : 'l'}`).join('|');

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const grid = { stroke: cssVar('--border'), width: 1 };
    const axis = { stroke: cssVar('--muted'), grid, ticks: grid, font: '11px system-ui, sans-serif' };
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height,
      legend: { show: true, live: false },
      cursor: { points: { size: 7 }, drag: { x: false, y: false } },
      scales: { x: { time: true, range: (_u, min, max) => timeRange(min, max) }, y: { range: (_u, min, max) => [0, Math.max(1, max ?? min ?? 1) * 1.1] } },
      axes: [
        // Labels carry the hour (and tenths or ms when close): room for about twelve characters each.
        { ...axis, space: 96, values: (_u, ticks) => timeLabels(ticks) },
        { ...axis, size: 56, values: (_u, ticks) => ticks.map(msLabel) },
      ],
      series: [
        {},
        ...props.series.map((s) => ({
          label: s.label,
          stroke: cssVar(s.color),
          fill: s.points ? cssVar(s.color) : undefined,
          width: s.points ? 0 : 2,
          spanGaps: !s.points,
          value: (_u: uPlot, v: number | null) => (v === null ? '—' : msLabel(v)),
          // A line of one point draws nothing: its points are shown while there are too few for a line.
          points: s.points
            ? { show: true, size: s.emphasis ? 9 : 6, width: s.emphasis ? 1.5 : 1, fill: cssVar(s.color), stroke: s.emphasis ? cssVar('--surface') : cssVar(s.color) }
            : { show: (u: uPlot) => (u.data[0]?.length ?? 0) < 3, size: 6, fill: cssVar(s.color), stroke: cssVar(s.color) },
          ...(s.points ? { paths: () => null } : {}),
        })),
      ],
    };
    const u = new uPlot(opts, [[], ...props.series.map(() => [])] as unknown as uPlot.AlignedData, el);
    plot.current = u;
    const onClick = (): void => {
      const idx = u.cursor.idx;
      if (idx !== null && idx !== undefined) pick.current?.(idx);
    };
    u.over.addEventListener('click', onClick);
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.over.removeEventListener('click', onClick);
      u.destroy();
      plot.current = undefined;
    };
    // Rebuilt when the series' shape or the theme changes; data alone is set below.
  }, [shape, dark, height]);

  useEffect(() => {
    plot.current?.setData([props.x.map((t) => t / 1000), ...props.series.map((s) => s.values)] as unknown as uPlot.AlignedData);
  }, [props.x, props.series, shape, dark]);

  return <div ref={host} className={`time-chart${props.onPick ? ' pickable' : ''}`} role="img" aria-label={props.summary} data-testid={props.testId} />;
}
