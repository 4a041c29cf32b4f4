// A recipe's child tables (fermentables, hops, …): their column definitions and the helpers the
// table, its cells and its add form share.
import type { Schemas } from '../api/client';
import type { usePrefs } from '../prefs';
import { symbolFor, type Kind, type RoundDefault } from '../units';
import type { CatalogKind } from '../catalog/types';

export interface Col {
  key: string;
  label: string;
  type: 'text' | 'number' | 'select';
  unit?: Kind;
  options?: readonly (readonly [string, string])[];
  nullable?: boolean;
  /** Default of the add form, in API units, or round numbers by display unit (`{ kg: 1, lb: 1 }`). */
  def?: string | number | RoundDefault | null;
  /** A text column's default on an account with US amounts ("oz" for "g"). */
  usDef?: string;
  /** The default as it depends on the add form's other fields (API units), e.g. a hop's time on its use. */
  defBy?: (values: Record<string, string>) => number;
  /** The unit as it depends on the row's other fields (acidulated malt is weighed, a salt's grams
   * are grams in every setting); `unit` where this gives nothing. */
  unitBy?: (row: Record<string, unknown>) => Kind | undefined;
  /** Minutes entered and shown in days where this says so (a dry hop's contact time). */
  days?: (row: Record<string, unknown>) => boolean;
  /** The word in accessible names, when the column header's word is taken by a recipe field. */
  aria?: string;
  /** Shown in the add form. */
  add?: boolean;
  /** The field means something only on rows where this says so (a hop stand's temperature, on
   * whirlpool and aroma hops; an infusion's water, on infusions after the first step); other rows
   * show an empty cell. `rows` are the table's rows in the API's order. */
  only?: (row: Record<string, unknown>, rows: readonly Row[]) => boolean;
}

/** A read-only column computed for display: the API's numbers (IBU per hop) or presentation arithmetic (grist %). */
export interface DerivedCol {
  key: string;
  label: string;
  /** Shown right after this column. */
  after: string;
  value: (row: Row, ctx: { rows: Row[]; stats: Schemas['StatsReport'] | undefined; prefs: Prefs }) => string;
  /** Reads the recipe's `/stats`. */
  stats?: boolean;
  /** Words rather than a number: they wrap in their cell instead of widening the table. */
  wrap?: boolean;
  /** Shown only on rows where this says so, as `Col.only`; the column only when some row has it. */
  only?: (row: Record<string, unknown>, rows: readonly Row[]) => boolean;
}

export interface ChildSpec {
  /** API path segment: `/v1/recipes/{id}/<path>` and `/v1/<path>/{id}`. */
  path: 'fermentables' | 'hops' | 'yeasts' | 'miscs' | 'mash-steps' | 'water-additions' | 'fermentation-steps';
  singular: string;
  title: string;
  cols: Col[];
  derived?: DerivedCol[];
  /** The name field suggests from this catalogue; rows can be saved to it. */
  catalog?: CatalogKind;
  /** The add form's field that takes focus once a catalogue item is chosen. */
  afterChoose?: string;
  /** The rows in the order they are shown, when the view orders them itself (the API's `sort_order` then stays as it is). */
  order?: (rows: Row[]) => Row[];
  /** Said under the table when `order` is set. */
  orderNote?: string;
}

export interface Row {
  id: string;
  sort_order: number;
  name: string;
  [k: string]: unknown;
}

/** Saves of number fields wait this long after the last keystroke (the statistics follow each save). */
export const NUMBER_DELAY = 80;

export const MINUTES_PER_DAY = 1440;

/** A column's unit for a row (or the add form's values). */
export function unitOf(c: Col, row: Record<string, unknown>): Kind | undefined {
  return c.unitBy?.(row) ?? c.unit;
}

/** A column's unit symbol in headers and labels ('' when it has none worth saying). */
export function colSymbol(c: Col, prefs: ReturnType<typeof usePrefs>, row: Record<string, unknown> = {}): string {
  const unit = unitOf(c, row);
  if (!unit) return '';
  const s = symbolFor(unit, prefs);
  return ['SG', ''].includes(s) ? '' : s;
}

export type Prefs = ReturnType<typeof usePrefs>;
