import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Schemas } from '../api/client';
import type { Preferences } from '../api/extra';
import { formatNumber, unitFor } from '../units';
import { absoluteTime } from '../time';
import { MARK_STYLE, withMarkTimes, type ChartMark } from './chartMarks';

type Log = Schemas['FermentationLog'];
type Forecast = Schemas['FermentationForecast'];

/** The forecast's FG band and line as chart series: values only from the last reading to the
 * later end of the finish interval, null elsewhere. Null when there is no forecast. */
export function forecastSeries(forecast: Forecast | null | undefined, lastReadingAt: number | undefined) {
  if (!forecast || lastReadingAt == null) return null;
  const { predicted_fg: fg, predicted_fg_low: low, predicted_fg_high: high, finish_at: finish, finish_at_high: latest } = forecast;
  if (fg == null || low == null || high == null || !finish) return null;
  const end = Date.parse(latest ?? finish) / 1000;
  if (!(end > lastReadingAt)) return null;
  return { from: lastReadingAt, to: end, fg, low, high };
}

/** A marker's width and height (a tap target), and how far a second row of them stands above the first. */
const MARKER_SIZE = 44;
const MARKER_ROW = 30;

/** The symbol on each kind's marker (its text is in the accessible name). */
const MARK_ICON: Record<ChartMark['kind'], string> = { note: '✎', step: '⚑', alert: '!' };

/** A mark's marker above the plot: where it stands, in CSS pixels of the chart area. */
interface Pin {
  mark: ChartMark;
  left: number;
  top: number;
  /** In the right half: its text opens leftwards, so it stays on the screen. */
  end: boolean;
}

/**
 * Gravity and temperature over time (uPlot: thousands of points without stutter), with the
 * marks (notes, schedule changes; `chartMarks.ts`) drawn as vertical lines at their instants
 * and a marker for each above the plot that shows its text on hover or focus.
 */
export default function FermentationChart({
  logs,
  prefs,
  marks,
  forecast,
}: {
  logs: Log[];
  prefs: Preferences;
  marks: ChartMark[];
  forecast?: Forecast | null;
}) {
  const area = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const [pins, setPins] = useState<Pin[]>([]);
  useEffect(() => {
    const el = box.current;
    const outer = area.current;
    if (!el || !outer) return;
    const g = unitFor('gravity', prefs);
    const t = unitFor('temperature', prefs);
    const readingXs: number[] = [];
    const gs: (number | null)[] = [];
    const ts: (number | null)[] = [];
    for (const l of logs) {
      if (l.gravity == null && l.temperature_c == null) continue;
      readingXs.push(Date.parse(l.logged_at) / 1000);
      gs.push(l.gravity == null ? null : g.to(l.gravity));
      ts.push(l.temperature_c == null ? null : t.to(l.temperature_c));
    }
    // The forecast: its FG line and 80 % band run from the last reading to the finish interval's
    // later end, so the time axis reaches that far.
    const ahead = forecastSeries(forecast, readingXs.length ? Math.max(...readingXs) : undefined);
    const reach = ahead ? [{ at: ahead.to }] : [];
    const merged = withMarkTimes(readingXs, [gs, ts], [...marks, ...reach] as ChartMark[]);
    const along = (v: number) => merged.xs.map((x) => (ahead && (x === ahead.from || x === ahead.to) ? g.to(v) : null));
    const data = ahead ? { xs: merged.xs, series: [...merged.series, along(ahead.fg)] } : merged;
    // The gravity axis reaches the band's edges too (the readings alone may stop above it).
    const band: [number, number] | null = ahead ? [Math.min(g.to(ahead.low), g.to(ahead.high)), Math.max(g.to(ahead.low), g.to(ahead.high))] : null;
    const dark = window.matchMedia('(prefers-color-scheme: dark)').matches;
    const ink = dark ? '#d9d4c7' : '#3b352b';
    const grid = dark ? '#3a362f' : '#e6e0d2';
    const width = () => Math.max(280, el.clientWidth);
    // The lines on the canvas; the markers are HTML, placed after every draw (zoom, resize).
    const drawMarks = (u: uPlot) => {
      const { ctx } = u;
      const top = u.bbox.top;
      const bottom = top + u.bbox.height;
      ctx.save();
      // The forecast's 80 % interval of the FG: a filled band from the last reading on.
      if (ahead && band) {
        const x0 = u.valToPos(ahead.from, 'x', true);
        const x1 = u.valToPos(ahead.to, 'x', true);
        const yTop = u.valToPos(band[1], 'g', true);
        const yBottom = u.valToPos(band[0], 'g', true);
        ctx.fillStyle = 'rgba(200, 137, 28, 0.18)';
        ctx.fillRect(x0, yTop, x1 - x0, yBottom - yTop);
      }
      ctx.lineWidth = Math.max(1, devicePixelRatio);
      for (const m of marks) {
        const x = Math.round(u.valToPos(m.at, 'x', true));
        if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) continue;
        const style = MARK_STYLE[m.kind];
        ctx.strokeStyle = style.colour;
        ctx.setLineDash(style.dash.map((d) => d * devicePixelRatio));
        ctx.beginPath();
        ctx.moveTo(x, top);
        ctx.lineTo(x, bottom);
        ctx.stroke();
      }
      ctx.restore();
      const overRect = u.over.getBoundingClientRect();
      const areaRect = outer.getBoundingClientRect();
      const plotWidth = u.over.clientWidth;
      const next: Pin[] = [];
      // Markers closer than their width stack in a second row (then overlap in the first).
      const rowEnds = [-Infinity, -Infinity];
      for (const m of marks) {
        const x = u.valToPos(m.at, 'x');
        if (x < 0 || x > plotWidth) continue;
        const left = overRect.left - areaRect.left + x;
        const row = rowEnds.findIndex((end) => end <= left - MARKER_SIZE);
        const r = row < 0 ? 0 : row;
        rowEnds[r] = left;
        next.push({ mark: m, left, top: overRect.top - areaRect.top - r * MARKER_ROW, end: left > areaRect.width / 2 });
      }
      setPins(next);
    };
    const opts: uPlot.Options = {
      width: width(),
      height: 280,
      cursor: { drag: { x: true, y: false } },
      // Room above the plot for the marks' markers.
      padding: [marks.length === 0 ? null : marks.length === 1 ? MARKER_SIZE : MARKER_SIZE + MARKER_ROW, null, null, null],
      scales: {
        x: { time: true },
        g: {
          auto: true,
          range: (_u, min, max) => (band ? uPlot.rangeNum(Math.min(min, band[0]), Math.max(max, band[1]), 0.1, true) : uPlot.rangeNum(min, max, 0.1, true)),
        },
        t: { auto: true },
      },
      series: [
        {},
        {
          label: `Gravity (${g.symbol})`,
          scale: 'g',
          stroke: '#c8891c',
          width: 2,
          spanGaps: true,
          value: (_u, v) => (v == null ? '—' : formatNumber(v, g.decimals, g.fixed)),
        },
        {
          label: `Temperature (${t.symbol})`,
          scale: 't',
          stroke: '#3f7cac',
          width: 2,
          spanGaps: true,
          value: (_u, v) => (v == null ? '—' : formatNumber(v, 1)),
        },
        ...(ahead
          ? [
              {
                label: `Forecast FG (${g.symbol})`,
                scale: 'g',
                stroke: '#c8891c',
                dash: [4, 4],
                width: 1.5,
                spanGaps: true,
                points: { show: false },
                value: (_u: uPlot, v: number | null) => (v == null ? '—' : formatNumber(v, g.decimals, g.fixed)),
              },
            ]
          : []),
      ],
      axes: [
        { stroke: ink, grid: { stroke: grid } },
        { scale: 'g', stroke: ink, grid: { stroke: grid }, size: 60, values: (_u, vals) => vals.map((v) => formatNumber(v, g.decimals, g.fixed)) },
        { scale: 't', side: 1, stroke: ink, grid: { show: false }, size: 50 },
      ],
      hooks: { draw: [drawMarks] },
    };
    const plot = new uPlot(opts, [data.xs, ...data.series], el);
    performance.mark('wort:chart-drawn', { detail: readingXs.length });
    const ro = new ResizeObserver(() => plot.setSize({ width: width(), height: 280 }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      plot.destroy();
    };
  }, [logs, prefs, marks, forecast]);
  // The canvas says nothing to assistive technology; the figure's caption, the readings table
  // and the list of marks below the chart carry the values. The markers are reachable by Tab
  // and show their text on focus as on hover.
  return (
    <div ref={area} className="chart-area">
      <div ref={box} className="chart-box" aria-hidden="true" />
      {pins.map(({ mark, left, top, end }) => {
        const style = MARK_STYLE[mark.kind];
        const label = `${style.word}, ${absoluteTime(mark.iso)}: ${mark.text}`;
        return (
          <button
            key={mark.key}
            type="button"
            className={`chart-mark ${mark.kind}${end ? ' tip-end' : ''}`}
            style={{ left, top, borderColor: style.colour, color: style.colour }}
            aria-label={label}
          >
            <span aria-hidden="true">{MARK_ICON[mark.kind]}</span>
            <span className="chart-mark-tip" aria-hidden="true">
              <strong>{style.word}</strong> · {absoluteTime(mark.iso)}
              <br />
              {mark.text}
            </span>
          </button>
        );
      })}
    </div>
  );
}
