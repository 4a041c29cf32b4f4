import { describe, expect, it } from 'vitest';
import { amountIn, baseAmount, itemAmount } from './amounts';
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
