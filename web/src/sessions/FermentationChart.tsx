import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Schemas } from '../api/client';
import type { Preferences } from '../api/extra';
import { formatNumber, unitFor } from '../units';

type Log = Schemas['FermentationLog'];

/** Gravity and temperature over time (uPlot: thousands of points without stutter). */
export default function FermentationChart({ logs, prefs }: { logs: Log[]; prefs: Preferences }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const g = unitFor('gravity', prefs);
    const t = unitFor('temperature', prefs);
    const xs: number[] = [];
    const gs: (number | null)[] = [];
    const ts: (number | null)[] = [];
    for (const l of logs) {
      if (l.gravity == null && l.temperature_c == null) continue;
      xs.push(Date.parse(l.logged_at) / 1000);
      gs.push(l.gravity == null ? null : g.to(l.gravity));
      ts.push(l.temperature_c == null ? null : t.to(l.temperature_c));
    }
    const dark = window.matchMedia('(prefers-color-scheme: dark)').matches;
    const ink = dark ? '#d9d4c7' : '#3b352b';
    const grid = dark ? '#3a362f' : '#e6e0d2';
    const width = () => Math.max(280, el.clientWidth);
    const opts: uPlot.Options = {
      width: width(),
      height: 280,
      cursor: { drag: { x: true, y: false } },
      scales: { x: { time: true }, g: { auto: true }, t: { auto: true } },
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
      ],
      axes: [
        { stroke: ink, grid: { stroke: grid } },
        { scale: 'g', stroke: ink, grid: { stroke: grid }, size: 60, values: (_u, vals) => vals.map((v) => formatNumber(v, g.decimals, g.fixed)) },
        { scale: 't', side: 1, stroke: ink, grid: { show: false }, size: 50 },
      ],
    };
    const plot = new uPlot(opts, [xs, gs, ts], el);
    performance.mark('wort:chart-drawn', { detail: xs.length });
    const ro = new ResizeObserver(() => plot.setSize({ width: width(), height: 280 }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      plot.destroy();
    };
  }, [logs, prefs]);
  // The canvas says nothing to assistive technology; the figure's caption and the readings
  // table carry the values.
  return <div ref={box} className="chart-box" aria-hidden="true" />;
}
