import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES } from '../api/extra';
import { startTexts, toolQuery, type ToolInput } from './query';

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
