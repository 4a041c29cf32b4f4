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

/** The metric and US counterparts of a recognised item unit, by base size (g, ml per unit). */
const counterparts: { dimension: Dimension; metric: [string, number]; us: [string, number]; from: number }[] = [
  { dimension: 'mass', metric: ['kg', 1000], us: ['lb', 453.59237], from: 400 },
  { dimension: 'mass', metric: ['g', 1], us: ['oz', G_PER_OZ], from: 0 },
  { dimension: 'volume', metric: ['L', 1000], us: ['gal', L_PER_GAL * 1000], from: 900 },
];

/**
 * The unit a person types an item's quantities in (Use, Add stock) and reads its price per: the
 * item's own unit, or its counterpart in the person's units when the API recognised the unit as a
 * mass or volume ("kg" on a US account takes lb, "oz" on a metric one g). `perShown`: item units
 * in one shown unit. The size of the item's unit comes from the API's `amount_base`; an empty item
 * (amount 0) keeps its own unit.
 */
export function entryUnit(
  item: { amount: number; amount_unit: string; amount_base?: number | null; unit_dimension?: Dimension | null },
  p: Preferences,
): { symbol: string; perShown: number } {
  const own = { symbol: item.amount_unit, perShown: 1 };
  if (item.amount_base == null || !item.unit_dimension || item.amount <= 0) return own;
  const base = item.amount_base / item.amount;
  const pair = counterparts.find((c) => c.dimension === item.unit_dimension && base >= c.from);
  if (!pair) return own;
  const [symbol, size] = p.amounts === 'us' ? pair.us : pair.metric;
  if (Math.abs(size - base) / size < 1e-9) return own;
  return { symbol, perShown: size / base };
}
