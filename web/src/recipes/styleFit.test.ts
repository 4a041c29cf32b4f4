import { describe, expect, it } from 'vitest';
import { barGeometry, fitStatus } from './styleFit';

describe('style-fit bar', () => {
  it('puts the range in the middle half and the value where it lies', () => {
    const g = barGeometry({ min: 1.04, max: 1.06, value: 1.05, in_range: true })!;
    expect(g.start).toBeCloseTo(25, 9);
    expect(g.end).toBeCloseTo(75, 9);
    expect(g.marker).toBeCloseTo(50, 9);
    expect(g.clamped).toBeNull();
  });
  it('a value at a bound sits on the range edge', () => {
    expect(barGeometry({ min: 20, max: 40, value: 20 })!.marker).toBeCloseTo(25, 9);
    expect(barGeometry({ min: 20, max: 40, value: 40 })!.marker).toBeCloseTo(75, 9);
  });
  it('values outside but near show in the margins; far ones are clamped to the edge', () => {
    expect(barGeometry({ min: 20, max: 40, value: 15 })!.marker).toBeCloseTo(12.5, 9);
    const high = barGeometry({ min: 20, max: 40, value: 90 })!;
    expect(high.marker).toBe(100);
    expect(high.clamped).toBe('high');
    const low = barGeometry({ min: 1.04, max: 1.06, value: 1.0 })!;
    expect(low.marker).toBe(0);
    expect(low.clamped).toBe('low');
  });
  it('a one-point range still draws', () => {
    const g = barGeometry({ min: 5, max: 5, value: 5 })!;
    expect(g.marker).toBeCloseTo(50, 9);
    expect(g.end).toBeGreaterThanOrEqual(g.start);
  });
  it('no range, no bar', () => {
    expect(barGeometry({ min: null, max: null, value: 3, in_range: null })).toBeNull();
    expect(barGeometry({ value: 3 })).toBeNull();
    expect(barGeometry({ min: 10, max: 5, value: 3 })).toBeNull();
  });
});

describe('style-fit words', () => {
  it('follow the API, which judges the value as displayed', () => {
    expect(fitStatus({ min: 1, max: 2, value: 1.5, in_range: true, position: 'in_range' })).toBe('in range');
    expect(fitStatus({ min: 1, max: 2, value: 0.5, in_range: false, position: 'below' })).toBe('below');
    expect(fitStatus({ min: 1, max: 2, value: 2.5, in_range: false, position: 'above' })).toBe('above');
    expect(fitStatus({ min: null, max: null, value: 2.5, in_range: null, position: null })).toBe('no range');
  });
});
