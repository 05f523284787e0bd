import { describe, expect, it } from 'vitest';
import { LONE_POINT_SPAN_S, timeLabels, timeRange } from './chart-axes.js';

const at = (h: number, m: number, s: number, ms = 0): number => new Date(2026, 10, 28, h, m, s, ms).getTime() / 1000;

describe('time axis', () => {
  it('labels sub-second ticks with the hour', () => {
    expect(timeLabels([at(14, 30, 15, 800), at(14, 30, 16, 0)].map((t) => t - 0.5))).toEqual(['14:30:15.3', '14:30:15.5']);
    expect(timeLabels([at(9, 5, 1, 10), at(9, 5, 1, 30)])).toEqual(['09:05:01.010', '09:05:01.030']);
  });
  it('labels seconds and minutes with the hour', () => {
    expect(timeLabels([at(14, 30, 15), at(14, 30, 20)])).toEqual(['14:30:15', '14:30:20']);
    expect(timeLabels([at(14, 30, 0), at(14, 35, 0)])).toEqual(['14:30', '14:35']);
  });
  it('keeps a window around a single point, and the last minute when there is none', () => {
    const t = at(14, 30, 15);
    expect(timeRange(t, t)).toEqual([t - LONE_POINT_SPAN_S, t + LONE_POINT_SPAN_S]);
    expect(timeRange(null, null, t)).toEqual([t - 2 * LONE_POINT_SPAN_S, t]);
    expect(timeRange(t, t + 10)).toEqual([t, t + 10]);
  });
});
