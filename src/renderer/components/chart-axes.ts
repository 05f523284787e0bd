/**
 * The time axis of the charts, as pure functions (tested without a canvas): tick labels that
 * always carry the hour, and an x range that stays a readable window when the data is one point
 * (or none) — uPlot would otherwise span zero seconds, or start at the epoch, and label every
 * tick "00:00".
 */

const two = (n: number): string => String(n).padStart(2, '0');

/** Tick labels of a time axis (seconds), 24-hour, always with the hour; tenths or ms when ticks are closer than a second. */
export function timeLabels(ticks: number[]): string[] {
  const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : 60;
  return ticks.map((t) => {
    const d = new Date(t * 1000);
    const hm = `${two(d.getHours())}:${two(d.getMinutes())}`;
    const hms = `${hm}:${two(d.getSeconds())}`;
    if (step < 0.1) return `${hms}.${String(d.getMilliseconds()).padStart(3, '0')}`;
    if (step < 1) return `${hms}.${Math.floor(d.getMilliseconds() / 100)}`;
    return step >= 60 ? hm : hms;
  });
}

/** Half the window shown around a single point (or an empty chart), in seconds. */
export const LONE_POINT_SPAN_S = 30;

/**
 * The x range (seconds) for data from `min` to `max`: as is when it spans time; a window around
 * one point; the last minute when there is no data.
 */
export function timeRange(min: number | null | undefined, max: number | null | undefined, now = Date.now() / 1000): [number, number] {
  if (min === null || min === undefined || max === null || max === undefined || !Number.isFinite(min) || !Number.isFinite(max)) return [now - 2 * LONE_POINT_SPAN_S, now];
  if (max - min < 0.001) return [min - LONE_POINT_SPAN_S, max + LONE_POINT_SPAN_S];
  return [min, max];
}
