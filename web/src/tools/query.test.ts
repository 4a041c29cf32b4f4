import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES } from '../api/extra';
import { isoDay, shownInputs, startTexts, toolQuery, type ToolInput } from './query';

const inputs: ToolInput[] = [
  { key: 'volume_liters', label: 'Beer volume', kind: 'volume', start: 18.927 },
  { key: 'temperature_c', label: 'Beer temperature', kind: 'temperature', start: 20 },
  { key: 'sugar', label: 'Sugar', options: [['corn', 'Corn sugar']], start: 'corn' },
];
const us = { ...DEFAULT_PREFERENCES, amounts: 'us', temperature: 'f' } as const;

describe('tool forms', () => {
  it('start in the person’s units', () => {
    expect(startTexts(inputs, us)).toEqual({ volume_liters: '5', temperature_c: '68', sugar: 'corn' });
    expect(startTexts(inputs, DEFAULT_PREFERENCES)).toEqual({ volume_liters: '18.93', temperature_c: '20', sugar: 'corn' });
  });

  it('send metric whatever the person typed in', () => {
    const r = toolQuery(inputs, { volume_liters: '5', temperature_c: '68', sugar: 'corn' }, us);
    expect('query' in r).toBe(true);
    if (!('query' in r)) return;
    expect(r.query.volume_liters).toBeCloseTo(18.927, 3);
    expect(r.query.temperature_c).toBeCloseTo(20, 9);
    expect(r.query.sugar).toBe('corn');
  });

  it('wait for every number', () => {
    expect(toolQuery(inputs, { volume_liters: '', temperature_c: 'warm', sugar: 'corn' }, us)).toEqual({
      missing: ['volume_liters', 'temperature_c'],
    });
  });
});

describe('a tool form with a choice of inputs', () => {
  const pitch: ToolInput[] = [
    { key: 'og', label: 'Original gravity', kind: 'gravity', start: 1.05 },
    {
      key: 'viability_from',
      label: 'Viability from',
      formOnly: true,
      start: 'percent',
      options: [
        ['percent', 'Viability %'],
        ['date', 'Production date'],
      ],
    },
    { key: 'viability_percent', label: 'Viability', kind: 'percent', start: 90, when: (t) => t.viability_from === 'percent' },
    { key: 'production_date', label: 'Production date', date: true, start: '', when: (t) => t.viability_from === 'date' },
    { key: 'as_of', label: 'Pitching day', date: true, start: '', optional: true, when: (t) => t.viability_from === 'date' },
  ];
  const p = DEFAULT_PREFERENCES;

  it('sends the inputs shown, never the form’s own choice', () => {
    const texts = startTexts(pitch, p);
    expect(texts).toEqual({ og: '1.050', viability_from: 'percent', viability_percent: '90', production_date: '', as_of: '' });
    expect(shownInputs(pitch, texts).map((i) => i.key)).toEqual(['og', 'viability_from', 'viability_percent']);
    expect(toolQuery(pitch, texts, p)).toEqual({ query: { og: 1.05, viability_percent: 90 } });
  });

  it('sends a day as typed, leaves out an optional empty one and waits for a required one', () => {
    const texts = { og: '1.050', viability_from: 'date', viability_percent: '90', production_date: '', as_of: '' };
    expect(toolQuery(pitch, texts, p)).toEqual({ missing: ['production_date'] });
    expect(toolQuery(pitch, { ...texts, production_date: '2026-10-01' }, p)).toEqual({ query: { og: 1.05, production_date: '2026-10-01' } });
    expect(toolQuery(pitch, { ...texts, production_date: '2026-10-01', as_of: '2026-11-01' }, p)).toEqual({
      query: { og: 1.05, production_date: '2026-10-01', as_of: '2026-11-01' },
    });
    expect(toolQuery(pitch, { ...texts, production_date: '1 October' }, p)).toEqual({ missing: ['production_date'] });
  });

  it('counts days back from a local day', () => {
    expect(isoDay(new Date(2026, 2, 1), 0)).toBe('2026-03-01');
    expect(isoDay(new Date(2026, 2, 1), 1)).toBe('2026-02-28');
    expect(isoDay(new Date(2026, 0, 15), 30)).toBe('2025-12-16');
  });
});
