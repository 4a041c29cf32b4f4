import { describe, expect, it } from 'vitest';
import type { Schemas } from '../api/client';
import { alertMarks, chartMarks, noteMarks, stepMarks, withMarkTimes } from './chartMarks';

const note = (id: string, at: string, text: string): Schemas['SessionNote'] => ({
  id,
  session_id: 's',
  at,
  text,
  created_at: at,
  updated_at: at,
});

const step = (over: Partial<Schemas['ScheduledStep']>): Schemas['ScheduledStep'] => ({
  id: 'x',
  session_id: 's',
  kind: 'rest',
  name: 'Primary',
  temperature_c: 19,
  amount_grams: null,
  due_at: null,
  due_at_gravity: null,
  due_at_attenuation_percent: null,
  days_after_previous: null,
  due: false,
  became_due_at: null,
  sort_order: 0,
  ...over,
});

const celsius = (c: number) => `${c} °C`;
const fahrenheit = (c: number) => `${(c * 9) / 5 + 32} °F`;
const grams = (g: number) => `${g} g`;

const alert = (id: string, raised_at: string): Schemas['Alert'] => ({
  id,
  rule_id: 'r',
  kind: 'temperature_outside',
  session_id: 's',
  device_id: null,
  raised_at,
  cleared_at: null,
  acknowledged_at: null,
  value: 21.3,
  message: 'Temperature 21.3 °C is above 20.5 °C',
});

describe('chart marks', () => {
  it('marks each alert when it was raised, in the words given, between a step and a note at one instant', () => {
    const at = '2026-12-05T18:00:00.000Z';
    const marks = chartMarks(
      noteMarks([note('n', at, 'Krausen up')]),
      alertMarks([alert('a', at)], (a) => `${a.value} hot`),
      stepMarks([step({ id: 'st', became_due_at: at })], String, String),
    );
    expect(marks.map((m) => [m.kind, m.key])).toEqual([
      ['step', 'step:st'],
      ['alert', 'alert:a'],
      ['note', 'note:n'],
    ]);
    expect(marks[1]).toMatchObject({ text: '21.3 hot', iso: at, at: Date.parse(at) / 1000, noteId: null });
  });

  it('marks only the steps that became due, named with their temperature in the account units', () => {
    const steps = [
      step({ id: 'a', became_due_at: '2026-12-01T10:00:00.000Z', due: true }),
      step({ id: 'b', name: 'Free rise', temperature_c: 21 }),
      step({ id: 'c', kind: 'dry_hop', name: 'Citra', temperature_c: null, amount_grams: 100, became_due_at: '2026-12-04T10:00:00.000Z', due: true }),
    ];
    expect(stepMarks(steps, celsius, grams).map((m) => [m.key, m.text, m.at])).toEqual([
      ['step:a', 'Primary · 19 °C', Date.parse('2026-12-01T10:00:00.000Z') / 1000],
      ['step:c', 'Dry hop: Citra · 100 g', Date.parse('2026-12-04T10:00:00.000Z') / 1000],
    ]);
    expect(stepMarks(steps, fahrenheit, grams)[0]?.text).toBe('Primary · 66.2 °F');
  });

  it('puts every source in time order, a schedule change before a note at the same instant', () => {
    const notes = noteMarks([note('n2', '2026-12-03T08:00:00.000Z', 'Krausen fell'), note('n1', '2026-12-01T10:00:00.000Z', 'Pitched')]);
    const steps = stepMarks([step({ id: 'a', became_due_at: '2026-12-01T10:00:00.000Z', due: true })], celsius, grams);
    const all = chartMarks(notes, steps);
    expect(all.map((m) => m.key)).toEqual(['step:a', 'note:n1', 'note:n2']);
    expect(all[1]?.noteId).toBe('n1');
    expect(all[0]?.noteId).toBeNull();
  });

  it("adds the marks' instants to the series as points without values, in time order", () => {
    const marks = noteMarks([note('late', '1970-01-01T00:00:30.000Z', 'Late'), note('early', '1970-01-01T00:00:05.000Z', 'Early')]);
    const out = withMarkTimes(
      [10, 20],
      [
        [1.05, 1.04],
        [null, 19],
      ],
      marks,
    );
    expect(out.xs).toEqual([5, 10, 20, 30]);
    expect(out.series).toEqual([
      [null, 1.05, 1.04, null],
      [null, null, 19, null],
    ]);
    expect(withMarkTimes([10], [[1]], [])).toEqual({ xs: [10], series: [[1]] });
  });
});
