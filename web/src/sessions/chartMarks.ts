// What the fermentation chart marks at an instant besides its readings: the brewer's notes and
// the schedule's step changes. Each source turns its rows into `ChartMark`s; the chart draws
// every mark as a vertical line with a marker (hover or focus shows its text), and the list
// below the chart says the same in words, for keyboard and screen-reader users.
//
// Extension point for alerts: add `'alert'` to `MarkKind`, write `alertMarks(alerts)` beside
// `noteMarks` (one mark per alert at its `raised_at`, the alert's message as its text), give it a
// colour in `MARK_STYLE`, and pass its marks to `chartMarks` with the others. The chart, the
// markers and the list take any kind without change.
import type { Schemas } from '../api/client';

type Note = Schemas['SessionNote'];
type ScheduledStep = Schemas['ScheduledStep'];

export type MarkKind = 'note' | 'step';

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

/** Every source's marks in time order (ties: schedule before notes, then as given). */
export function chartMarks(...sources: ChartMark[][]): ChartMark[] {
  const order: Record<MarkKind, number> = { step: 0, note: 1 };
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
