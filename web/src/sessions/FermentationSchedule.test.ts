import { describe, expect, it } from 'vitest';
import { dueText } from './FermentationSchedule';
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
  days_after_previous: null,
  due: false,
  became_due_at: null,
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
