/**
 * A time chart (uPlot: small, canvas, fast with thousands of points, styles from its own CSS
 * file): latency per call over a session, p50/p95 over time per server. Follows the container's
 * width and the theme; a click on a point reports its index. The canvas is described in words
 * for assistive technology (`summary`).
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { usePrefersDark } from './use-prefers-dark.js';

export interface ChartSeries {
  label: string;
  /** One value per x; null where the series has none. */
  values: Array<number | null>;
  /** A CSS custom property of the theme, e.g. `--accent`. */
  color: string;
  /** Points only (a scatter), or a line. */
  points?: boolean;
}

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

const two = (n: number): string => String(n).padStart(2, '0');

/** Tick labels of a time axis (seconds), 24-hour, with milliseconds when ticks are closer than a second. */
function timeLabels(ticks: number[]): string[] {
  const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : 60;
  return ticks.map((t) => {
    const d = new Date(t * 1000);
    const hms = `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
    // Below a second: minutes, seconds and tenths (13:53.2), or milliseconds when closer still.
    if (step < 0.1) return `${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
    if (step < 1) return `${two(d.getMinutes())}:${two(d.getSeconds())}.${Math.floor(d.getMilliseconds() / 100)}`;
    return step >= 60 ? hms.slice(0, 5) : hms;
  });
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
      scales: { x: { time: true }, y: { range: (_u, min, max) => [0, Math.max(1, max ?? min ?? 1) * 1.1] } },
      axes: [
        { ...axis, values: (_u, ticks) => timeLabels(ticks) },
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
          points: s.points ? { show: true, size: 6, fill: cssVar(s.color), stroke: cssVar(s.color) } : { show: false },
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
