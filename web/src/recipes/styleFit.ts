// How a style-fit bar is drawn from the API's `style_fit` entries. Nothing here decides whether a
// number fits: `in_range` comes from `/stats`; this only places the range and the value on a bar.

import type { Schemas } from '../api/client';

/** One statistic of `style_fit`: `{min, max, value, in_range}`. */
export type FitEntry = Schemas['Fit'];

export type FitStatus = 'in range' | 'below' | 'above' | 'no range';

/** The words for an entry: the API's `position`, decided on the value as displayed. */
export function fitStatus(f: FitEntry): FitStatus {
  switch (f.position) {
    case 'in_range':
      return 'in range';
    case 'below':
      return 'below';
    case 'above':
      return 'above';
    default:
      return 'no range';
  }
}

export interface BarGeometry {
  /** Left edge of the range, percent of the bar. */
  start: number;
  /** Right edge of the range, percent of the bar. */
  end: number;
  /** The value's mark, percent of the bar (clamped to 0–100). */
  marker: number;
  /** The value lies beyond the bar's end: drawn at the edge with an arrow. */
  clamped: 'low' | 'high' | null;
}

/**
 * The range takes the middle half of the bar (a quarter of its width of room either side), so
 * every style's bar reads the same way; a value further out sits at the edge, marked clamped.
 * `null` when the guidelines give no range.
 */
export function barGeometry(f: FitEntry): BarGeometry | null {
  const { min, max, value } = f;
  if (min == null || max == null || !Number.isFinite(min) || !Number.isFinite(max) || max < min) return null;
  let span = max - min;
  if (span === 0) span = Math.max(Math.abs(min) * 0.1, 1e-3);
  const lo = (min + max) / 2 - span;
  const hi = (min + max) / 2 + span;
  const at = (v: number) => ((v - lo) / (hi - lo)) * 100;
  const raw = at(value);
  return {
    start: at(min),
    end: at(max),
    marker: Math.min(100, Math.max(0, raw)),
    clamped: raw < 0 ? 'low' : raw > 100 ? 'high' : null,
  };
}
