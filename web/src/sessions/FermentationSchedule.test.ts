import { describe, expect, it } from 'vitest';
import { dueText, endedText } from './FermentationSchedule';
import type { Schemas } from '../api/client';

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
  due_at_gravity_from: null,
  days_after_previous: null,
  min_days_after_previous: null,
  due: false,
  became_due_at: null,
  due_by: null,
  ended_at: null,
  ended_by: null,
  ended_gravity: null,
  sort_order: 0,
  ...over,
});

describe('dueText', () => {
  const g = (sg: number) => sg.toFixed(3);
  const t = (iso: string) => `at ${iso}`;
  it('says the time when there is one', () => {
    expect(dueText(step({ due_at: '2026-12-01T10:00:00.000Z' }), g, t)).toBe('at 2026-12-01T10:00:00.000Z');
  });
  it('says the gravity or attenuation condition', () => {
    expect(dueText(step({ due_at_gravity: 1.015 }), g, t)).toBe('When gravity 1.015 or below');
    expect(dueText(step({ due_at_gravity: 1.015, due_at_attenuation_percent: 70 }), g, t)).toBe('When gravity 1.015 or below or attenuation 70 % or more');
  });
  it('says the days after the step before, else by hand', () => {
    expect(dueText(step({ days_after_previous: 3 }), g, t)).toBe('3 days after the step before');
    expect(dueText(step({}), g, t)).toBe('By hand');
  });
});

describe('dueText with a time fallback', () => {
  const g = (sg: number) => sg.toFixed(3);
  const t = (iso: string) => iso.slice(0, 10);
  it('says the condition, its minimum and the latest time', () => {
    const s = step({ due_at: '2026-12-15T10:00:00.000Z', due_at_gravity: 1.012, due_at_gravity_from: '2026-12-04T10:00:00.000Z' });
    expect(dueText(s, g, t)).toBe('When gravity 1.012 or below, not before 2026-12-04; at the latest 2026-12-15');
  });
});

describe('endedText', () => {
  const g = (sg: number) => sg.toFixed(3);
  it('says nothing while the rest runs', () => {
    expect(endedText(step({}), g)).toBeNull();
  });
  it('says the gravity that ended it', () => {
    expect(endedText(step({ ended_by: 'gravity', ended_gravity: 1.012 }), g)).toBe('ended at 1.012');
    expect(endedText(step({ ended_by: 'attenuation', ended_gravity: 1.011 }), g)).toBe('ended at 1.011 (attenuation reached)');
  });
  it('says how many days it ran when its time ended it', () => {
    const ran = step({ ended_by: 'time', became_due_at: '2026-12-01T10:00:00.000Z', ended_at: '2026-12-15T10:00:05.000Z' });
    expect(endedText(ran, g)).toBe('ended after 14 days');
    const short = step({ ended_by: 'time', became_due_at: '2026-12-01T10:00:00.000Z', ended_at: '2026-12-02T22:00:00.000Z' });
    expect(endedText(short, g)).toBe('ended after 1.5 days');
  });
});
