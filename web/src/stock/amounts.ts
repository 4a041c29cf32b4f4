import type { Preferences } from '../api/extra';
import { formatNumber, G_PER_OZ, KG_PER_LB, L_PER_GAL } from '../units';

type Dimension = 'mass' | 'volume' | 'count';

/**
 * An amount the API measured in its base unit (grams, millilitres or items: `amount_base` with
 * `unit_dimension`), shown in the person's units: g/kg or oz/lb, ml/L or fl oz/gal. The API
 * recognises the unit; this only chooses how to show it.
 */
export function baseAmount(base: number, dimension: Dimension, p: Preferences): string {
  const us = p.amounts === 'us';
  if (dimension === 'mass') {
    if (us) {
      const lb = base / 1000 / KG_PER_LB;
      return lb >= 1 ? `${formatNumber(lb, 2)} lb` : `${formatNumber(base / G_PER_OZ, 2)} oz`;
    }
    return base >= 1000 ? `${formatNumber(base / 1000, 3)} kg` : `${formatNumber(base, 1)} g`;
  }
  if (dimension === 'volume') {
    if (us) {
      const gal = base / 1000 / L_PER_GAL;
      return gal >= 0.25 ? `${formatNumber(gal, 2)} gal` : `${formatNumber(base / 29.5735295625, 2)} fl oz`;
    }
    return base >= 1000 ? `${formatNumber(base / 1000, 2)} L` : `${formatNumber(base, 1)} ml`;
  }
  return `${formatNumber(base, 2)} each`;
}

/** The metric symbols the API answers for unmatched shopping lines, as base factors. */
const metric: Record<string, [number, Dimension]> = {
  g: [1, 'mass'],
  kg: [1000, 'mass'],
  ml: [1, 'volume'],
  l: [1000, 'volume'],
};

/**
 * An amount in a unit the API chose or the person typed: the API's metric symbols (g, kg, ml, l)
 * follow the person's units; any other unit is shown as it was typed.
 */
export function amountIn(amount: number, unit: string, p: Preferences): string {
  const m = metric[unit];
  if (m) return baseAmount(amount * m[0], m[1], p);
  return `${formatNumber(amount, 3)} ${unit}`.trim();
}

/** An inventory item's amount: in the person's units when the API recognised its unit. */
export function itemAmount(
  item: { amount: number; amount_unit: string; amount_base?: number | null; unit_dimension?: Dimension | null },
  p: Preferences,
): string {
  if (item.amount_base != null && item.unit_dimension && item.unit_dimension !== 'count') return baseAmount(item.amount_base, item.unit_dimension, p);
  return `${formatNumber(item.amount, 3)} ${item.amount_unit}`;
}
