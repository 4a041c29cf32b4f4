// Display units. The API is metric and SG always; these convert for display and for input.
// Every pair is an exact inverse (to floating-point precision), so a value entered in a display
// unit, stored, and shown again in the same unit reads as it was typed.
import type { Preferences } from './api/extra';

export const KG_PER_LB = 0.45359237;
export const G_PER_OZ = 28.349523125;
export const L_PER_GAL = 3.785411784;
/** A US liquid quart: a quarter of a US gallon. */
export const L_PER_QT = L_PER_GAL / 4;
/** Grain absorption: 1 L/kg is 0.4793 qt/lb. */
const QT_PER_LB_PER_L_PER_KG = KG_PER_LB / L_PER_QT;
export const EBC_PER_SRM = 1.97;

/** Degrees Plato from SG (ASBC polynomial). */
export function sgToPlato(sg: number): number {
  return -616.868 + 1111.14 * sg - 630.272 * sg * sg + 135.997 * sg * sg * sg;
}

/** SG from degrees Plato: the exact inverse of sgToPlato (Newton's method on the polynomial). */
export function platoToSg(plato: number): number {
  let sg = 1 + plato / (258.6 - (plato / 258.2) * 227.1);
  for (let i = 0; i < 20; i++) {
    const f = sgToPlato(sg) - plato;
    const d = 1111.14 - 2 * 630.272 * sg + 3 * 135.997 * sg * sg;
    const step = f / d;
    sg -= step;
    if (Math.abs(step) < 1e-14) break;
  }
  return sg;
}

export type Kind =
  | 'mass_kg' // fermentables
  | 'mass_g' // hops
  | 'volume' // litres
  | 'volume_rate' // litres per hour (boil-off)
  | 'absorption' // litres per kg of grain (quarts per pound in US amounts)
  | 'gravity' // SG
  | 'color' // SRM
  | 'temperature' // °C
  | 'percent' // 0–100 as is
  | 'fraction' // 0–1 shown as %
  | 'minutes'
  | 'plain';

interface Unit {
  symbol: string;
  /** API value → display value */
  to: (v: number) => number;
  /** display value → API value */
  from: (v: number) => number;
  /** decimals shown */
  decimals: number;
  /** trailing zeros kept (gravity reads 1.050, not 1.05) */
  fixed?: boolean;
}

const id = (v: number) => v;

export function unitFor(kind: Kind, p: Preferences): Unit {
  const us = p.amounts === 'us';
  switch (kind) {
    case 'mass_kg':
      return us ? { symbol: 'lb', to: (v) => v / KG_PER_LB, from: (v) => v * KG_PER_LB, decimals: 2 } : { symbol: 'kg', to: id, from: id, decimals: 3 };
    case 'mass_g':
      return us ? { symbol: 'oz', to: (v) => v / G_PER_OZ, from: (v) => v * G_PER_OZ, decimals: 2 } : { symbol: 'g', to: id, from: id, decimals: 1 };
    case 'volume':
      return us ? { symbol: 'gal', to: (v) => v / L_PER_GAL, from: (v) => v * L_PER_GAL, decimals: 2 } : { symbol: 'L', to: id, from: id, decimals: 2 };
    case 'volume_rate':
      return us ? { symbol: 'gal/h', to: (v) => v / L_PER_GAL, from: (v) => v * L_PER_GAL, decimals: 2 } : { symbol: 'L/h', to: id, from: id, decimals: 2 };
    case 'absorption':
      return us
        ? { symbol: 'qt/lb', to: (v) => v * QT_PER_LB_PER_L_PER_KG, from: (v) => v / QT_PER_LB_PER_L_PER_KG, decimals: 2 }
        : { symbol: 'L/kg', to: id, from: id, decimals: 2 };
    case 'gravity':
      if (p.gravity === 'plato') return { symbol: '°P', to: sgToPlato, from: platoToSg, decimals: 1, fixed: true };
      if (p.gravity === 'brix') return { symbol: '°Bx', to: sgToPlato, from: platoToSg, decimals: 1, fixed: true };
      return { symbol: 'SG', to: id, from: id, decimals: 3, fixed: true };
    case 'color':
      return p.color === 'ebc'
        ? { symbol: 'EBC', to: (v) => v * EBC_PER_SRM, from: (v) => v / EBC_PER_SRM, decimals: 1 }
        : { symbol: 'SRM', to: id, from: id, decimals: 1 };
    case 'temperature':
      return p.temperature === 'f'
        ? { symbol: '°F', to: (v) => (v * 9) / 5 + 32, from: (v) => ((v - 32) * 5) / 9, decimals: 1 }
        : { symbol: '°C', to: id, from: id, decimals: 1 };
    case 'percent':
      return { symbol: '%', to: id, from: id, decimals: 1 };
    case 'fraction':
      return { symbol: '%', to: (v) => v * 100, from: (v) => v / 100, decimals: 1 };
    case 'minutes':
      return { symbol: 'min', to: id, from: id, decimals: 0 };
    case 'plain':
      return { symbol: '', to: id, from: id, decimals: 2 };
  }
}

/** A number with at most `decimals` decimals; trailing zeros dropped unless `fixed`. */
export function formatNumber(v: number, decimals: number, fixed = false): string {
  if (!Number.isFinite(v)) return '';
  let s = v.toFixed(decimals);
  if (s === '-0' || /^-0\.0*$/.test(s)) s = s.slice(1);
  if (!fixed && s.includes('.')) s = s.replace(/\.?0+$/, '');
  return s;
}

/** An API value as the text of an input in the display unit. */
export function toInput(v: number | null | undefined, kind: Kind, p: Preferences): string {
  if (v == null) return '';
  const u = unitFor(kind, p);
  return formatNumber(u.to(v), u.decimals, u.fixed);
}

/** An API value for reading, with its unit symbol. */
export function display(v: number | null | undefined, kind: Kind, p: Preferences): string {
  if (v == null) return '—';
  const u = unitFor(kind, p);
  const n = formatNumber(u.to(v), u.decimals, u.fixed);
  if (!u.symbol) return n;
  if (u.symbol === 'SG') return n;
  if (u.symbol === '%' || u.symbol.startsWith('°')) return `${n} ${u.symbol}`.replace(' %', ' %');
  return `${n} ${u.symbol}`;
}

/** Parses what a person typed (comma or point as the decimal mark). */
export function parseNumber(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (t === '') return null;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return NaN;
  return Number(t);
}

/**
 * Typed text in the display unit → API value. `null` for empty, `NaN` when not a number.
 * When the text is exactly what the stored value displays as, the stored value is returned
 * unchanged, so re-saving an untouched field never moves it.
 */
export function fromInput(text: string, kind: Kind, p: Preferences, current?: number | null): number | null {
  const n = parseNumber(text);
  if (n == null || Number.isNaN(n)) return n;
  if (current != null && toInput(current, kind, p) === text.trim()) return current;
  return unitFor(kind, p).from(n);
}

export function symbolFor(kind: Kind, p: Preferences): string {
  return unitFor(kind, p).symbol;
}

/**
 * A starting value that reads as a round number in the unit the person sees: `{ L: 20, gal: 5 }`
 * starts a batch at 20 L on a metric account and at 5 gal (18.93 L) on a US one, where converting
 * 20 L would show 5.28 gal. Keyed by unit symbol; the first entry is in the API's unit and serves
 * any unit the table does not name.
 */
export type RoundDefault = Readonly<Record<string, number>>;

/** The starting value for `kind` in API units: the round number of the unit shown, else the first entry. */
export function roundDefault(kind: Kind, rounds: RoundDefault, p: Preferences): number {
  const u = unitFor(kind, p);
  const shown = rounds[u.symbol];
  if (shown != null) return u.from(shown);
  return Object.values(rounds)[0] ?? 0;
}

/** Approximate sRGB of a beer of the given SRM (for the colour swatch only). */
export function srmToRgb(srm: number): string {
  const s = Math.max(0, Math.min(40, srm));
  // Piecewise fit of the common SRM reference chart.
  const r = Math.round(Math.min(255, Math.max(0, 255 * Math.pow(0.975, s))));
  const g = Math.round(Math.min(255, Math.max(0, 245 * Math.pow(0.88, s))));
  const b = Math.round(Math.min(255, Math.max(0, 220 * Math.pow(0.7, s))));
  return `rgb(${r}, ${g}, ${b})`;
}
