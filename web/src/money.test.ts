import { describe, expect, it } from 'vitest';
import { currencyName, formatMoney } from './money';

describe('formatMoney', () => {
  it('writes plain numbers with two decimals without a currency', () => {
    expect(formatMoney(10.5, null)).toBe('10.50');
    expect(formatMoney(1234.5, undefined)).toBe('1234.50');
    expect(formatMoney(0, null)).toBe('0.00');
  });

  it('writes the currency symbol with its own decimals', () => {
    expect(formatMoney(10.5, 'USD')).toBe('$10.50');
    expect(formatMoney(10.5, 'EUR')).toBe('€10.50');
    expect(formatMoney(1234.5, 'GBP')).toBe('£1,234.50');
    expect(formatMoney(1234, 'JPY')).toBe('¥1,234');
    expect(formatMoney(3.7, 'CAD')).toBe('CA$3.70');
  });

  it('keeps more decimals only when asked (a price per gram)', () => {
    expect(formatMoney(0.0125, 'USD', 4)).toBe('$0.0125');
    expect(formatMoney(0.1, 'USD', 4)).toBe('$0.10');
    expect(formatMoney(0.0125, null, 4)).toBe('0.0125');
  });

  it('names currencies', () => {
    expect(currencyName('EUR')).toBe('Euro');
    expect(currencyName('USD')).toBe('US Dollar');
  });
});
