// What the fermentation chart marks at an instant besides its readings: the brewer's notes, the
// schedule's step changes and the alerts raised. Each source turns its rows into `ChartMark`s;
// the chart draws every mark as a vertical line with a marker (hover or focus shows its text),
// and the list below the chart says the same in words, for keyboard and screen-reader users. A
// new source adds a kind, a style in `MARK_STYLE` and a builder beside `noteMarks`.
import type { Schemas } from '../api/client';

type Note = Schemas['SessionNote'];
type ScheduledStep = Schemas['ScheduledStep'];
type Alert = Schemas['Alert'];

export type MarkKind = 'note' | 'step' | 'alert';

export interface ChartMark {
  /** Unique among the chart's marks (the kind and the row's id). */
  key: string;
  kind: MarkKind;
  /** The instant, as seconds since the epoch (uPlot's time scale). */
  at: number;
  /** The same instant as the API wrote it. */
  iso: string;
  /** What the marker says on hover or focus, and the list below the chart. */
  text: string;
  /** The note's id, for editing; null for marks that are not notes. */
  noteId: string | null;
}

/** How each kind is drawn: its line colour and dash, and the word that names it. */
export const MARK_STYLE: Record<MarkKind, { colour: string; dash: number[]; word: string }> = {
  note: { colour: '#7a5cad', dash: [], word: 'Note' },
  step: { colour: '#2f8f5b', dash: [6, 4], word: 'Schedule' },
  alert: { colour: '#b3261e', dash: [2, 3], word: 'Alert' },
};

const seconds = (iso: string) => Date.parse(iso) / 1000;

export function noteMarks(notes: Note[]): ChartMark[] {
  return notes.map((n) => ({ key: `note:${n.id}`, kind: 'note', at: seconds(n.at), iso: n.at, text: n.text, noteId: n.id }));
}

/**
 * One mark per schedule step that has become due, at the time it did: "Primary · 19 °C" for a
 * rest (its temperature in the account's units through `temperature`), "Dry hop: Citra · 100 g"
 * for a dry hop. Steps still waiting have no time yet and are not drawn.
 */
export function stepMarks(steps: ScheduledStep[], temperature: (c: number) => string, mass: (g: number) => string): ChartMark[] {
  const marks: ChartMark[] = [];
  for (const s of steps) {
    if (!s.became_due_at) continue;
    const name = s.kind === 'dry_hop' ? `Dry hop: ${s.name}` : s.name;
    const detail = s.kind === 'rest' ? (s.temperature_c == null ? null : temperature(s.temperature_c)) : s.amount_grams == null ? null : mass(s.amount_grams);
    marks.push({
      key: `step:${s.id}`,
      kind: 'step',
      at: seconds(s.became_due_at),
      iso: s.became_due_at,
      text: detail ? `${name} · ${detail}` : name,
      noteId: null,
    });
  }
  return marks;
}

/** One mark per alert, at the time it was raised; `text` says it in the account's units. */
export function alertMarks(alerts: Alert[], text: (a: Alert) => string): ChartMark[] {
  return alerts.map((a) => ({ key: `alert:${a.id}`, kind: 'alert', at: seconds(a.raised_at), iso: a.raised_at, text: text(a), noteId: null }));
}

/** Every source's marks in time order (ties: schedule, then alerts, then notes, then as given). */
export function chartMarks(...sources: ChartMark[][]): ChartMark[] {
  const order: Record<MarkKind, number> = { step: 0, alert: 1, note: 2 };
  return sources
    .flat()
    .map((m, i) => ({ m, i }))
    .sort((a, b) => a.m.at - b.m.at || order[a.m.kind] - order[b.m.kind] || a.i - b.i)
    .map(({ m }) => m);
}

/**
 * The chart's series with every mark's instant added as a point without values, in time order:
 * uPlot then fits its time axis to the marks too (a note written after the last reading still
 * shows) and zooming keeps working, while the lines span the gaps.
 */
export function withMarkTimes(xs: number[], series: (number | null)[][], marks: ChartMark[]): { xs: number[]; series: (number | null)[][] } {
  if (marks.length === 0) return { xs, series };
  const rows = xs.map((x, i) => ({ x, values: series.map((s) => s[i] ?? null) }));
  for (const m of marks) rows.push({ x: m.at, values: series.map(() => null) });
  rows.sort((a, b) => a.x - b.x);
  return { xs: rows.map((r) => r.x), series: series.map((_s, k) => rows.map((r) => r.values[k] ?? null)) };
}
