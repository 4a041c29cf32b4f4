import { describe, expect, it } from 'vitest';
import { amountIn, baseAmount, entryUnit, itemAmount } from './amounts';
import type { Preferences } from '../api/extra';

const metric = { amounts: 'metric', gravity: 'sg', color: 'srm', temperature: 'c' } as Preferences;
const us = { ...metric, amounts: 'us' } as Preferences;

describe('stock amounts', () => {
  it('shows 20 kg in pounds on a US account and in kg on a metric one', () => {
    const item = { amount: 20, amount_unit: 'kg', amount_base: 20000, unit_dimension: 'mass' as const };
    expect(itemAmount(item, us)).toBe('44.09 lb');
    expect(itemAmount(item, metric)).toBe('20 kg');
  });
  it('small masses in ounces or grams', () => {
    expect(baseAmount(56, 'mass', us)).toBe('1.98 oz');
    expect(baseAmount(56, 'mass', metric)).toBe('56 g');
  });
  it('volumes in gallons or litres', () => {
    expect(baseAmount(3785.411784, 'volume', us)).toBe('1 gal');
    expect(baseAmount(1500, 'volume', metric)).toBe('1.5 L');
  });
  it('keeps units the API did not recognise as typed', () => {
    expect(itemAmount({ amount: 3, amount_unit: 'vials', amount_base: null, unit_dimension: null }, us)).toBe('3 vials');
    expect(amountIn(2, 'pkg', us)).toBe('2 pkg');
    expect(amountIn(2, 'kg', us)).toBe('4.41 lb');
  });
});

describe('the unit quantities are typed in', () => {
  const kg = { amount: 20, amount_unit: 'kg', amount_base: 20000, unit_dimension: 'mass' as const };
  it('a kg item takes lb on a US account, and the API gets kg', () => {
    const e = entryUnit(kg, us);
    expect(e.symbol).toBe('lb');
    expect(e.perShown).toBeCloseTo(0.45359237, 8);
  });
  it('an item already in the person’s units keeps its own', () => {
    expect(entryUnit(kg, metric)).toEqual({ symbol: 'kg', perShown: 1 });
    expect(entryUnit({ amount: 4, amount_unit: 'Ounces', amount_base: 4 * 28.349523125, unit_dimension: 'mass' }, us)).toEqual({
      symbol: 'Ounces',
      perShown: 1,
    });
  });
  it('grams take oz; an unrecognised, counted or empty item keeps its own unit', () => {
    expect(entryUnit({ amount: 100, amount_unit: 'g', amount_base: 100, unit_dimension: 'mass' }, us).symbol).toBe('oz');
    expect(entryUnit({ amount: 2, amount_unit: 'pkg', amount_base: 2, unit_dimension: 'count' }, us).symbol).toBe('pkg');
    expect(entryUnit({ amount: 0, amount_unit: 'kg', amount_base: 0, unit_dimension: 'mass' }, us).symbol).toBe('kg');
    expect(entryUnit({ amount: 1, amount_unit: 'sack', amount_base: null, unit_dimension: null }, us).symbol).toBe('sack');
  });
});
